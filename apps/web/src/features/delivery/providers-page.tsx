import { useState, type ReactNode } from 'react';
import { Alert } from 'react-bootstrap';
import type { UseQueryResult } from '@tanstack/react-query';
import { ui } from '@herald/contract';
import { LoadingSpinner } from '../../components/loading-spinner';
import { errorMessage } from '../../lib/api-client';
import { useProviders } from '../../api/delivery/get-providers';
import { useRoutes } from '../../api/delivery/get-routes';
import { useSenders } from '../../api/delivery/get-senders';
import { ProvidersSection } from './providers-section';
import { RoutingSection } from './routing-section';
import { SendersSection } from './senders-section';
import { TemplatesSection } from './templates-section';

const t = ui.providers;

/** One section once its list has arrived; a spinner before, the error instead. */
function Loaded<T>(props: {
  query: UseQueryResult<T>;
  failed: string;
  children: (data: T) => ReactNode;
}) {
  const { query } = props;
  if (query.isPending) return <LoadingSpinner label="Loading..." />;
  if (query.isError) {
    return <Alert variant="danger">{errorMessage(query.error, props.failed)}</Alert>;
  }
  return props.children(query.data);
}

/**
 * Providers (/providers, Admin): the providers Herald sends through (the built-in simulator
 * and the WhatsApp Cloud API numbers and SMS gateways the Admin connects), their senders with
 * their limits, the approved templates of the WhatsApp senders, and the sender of each credit
 * type (docs/delivery.md, The Providers screen).
 * Each section draws as soon as its own list is there, so one failed list hides only its part.
 */
export function ProvidersPage() {
  const providers = useProviders();
  const senders = useSenders();
  const routes = useRoutes();
  const [notice, setNotice] = useState<string | null>(null);
  const senderList = senders.data ?? [];

  return (
    <div>
      <h1 className="h3 mb-2">{t.title}</h1>
      <p className="text-muted">{t.intro}</p>
      {notice && (
        <Alert variant="success" dismissible onClose={() => setNotice(null)}>
          {notice}
        </Alert>
      )}
      <Loaded query={providers} failed={t.loadFailed}>
        {(list) => <ProvidersSection providers={list} senders={senderList} onNotice={setNotice} />}
      </Loaded>
      <Loaded query={senders} failed={t.sendersLoadFailed}>
        {(list) => (
          <SendersSection senders={list} providers={providers.data ?? []} onNotice={setNotice} />
        )}
      </Loaded>
      {senders.data && <TemplatesSection senders={senders.data} onNotice={setNotice} />}
      <Loaded query={routes} failed={t.routesLoadFailed}>
        {(list) =>
          // Its choices are the senders: drawn once they are there (their section says why not).
          senders.data && (
            <RoutingSection routes={list} senders={senders.data} onNotice={setNotice} />
          )
        }
      </Loaded>
    </div>
  );
}
