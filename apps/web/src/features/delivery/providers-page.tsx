import { useState, type ReactNode } from 'react';
import { Alert } from 'react-bootstrap';
import { ui } from '@herald/contract';
import { LoadingSpinner } from '../../components/loading-spinner';
import { errorMessage } from '../../lib/api-client';
import { useProviders } from '../../api/delivery/get-providers';
import { useRoutes } from '../../api/delivery/get-routes';
import { useSenders } from '../../api/delivery/get-senders';
import { ProvidersSection } from './providers-section';
import { RoutingSection } from './routing-section';
import { SendersSection } from './senders-section';

const t = ui.providers;

/**
 * Providers (/providers, Admin): the providers Herald sends through (the built-in simulator
 * and the WhatsApp Cloud API numbers and SMS gateways the Admin connects), their senders with
 * their limits, and the sender of each credit type (docs/delivery.md, The Providers screen).
 */
export function ProvidersPage() {
  const providers = useProviders();
  const senders = useSenders();
  const routes = useRoutes();
  const [notice, setNotice] = useState<string | null>(null);

  let body: ReactNode;
  if (providers.isPending || senders.isPending || routes.isPending) {
    body = <LoadingSpinner label="Loading providers..." />;
  } else if (providers.isError || senders.isError) {
    const error = providers.error ?? senders.error;
    body = <Alert variant="danger">{errorMessage(error, t.loadFailed)}</Alert>;
  } else {
    body = (
      <>
        <ProvidersSection providers={providers.data} senders={senders.data} onNotice={setNotice} />
        <SendersSection senders={senders.data} providers={providers.data} onNotice={setNotice} />
        {routes.isError ? (
          <Alert variant="danger">{errorMessage(routes.error, t.routesLoadFailed)}</Alert>
        ) : (
          <RoutingSection routes={routes.data} senders={senders.data} onNotice={setNotice} />
        )}
      </>
    );
  }

  return (
    <div>
      <h1 className="h3 mb-2">{t.title}</h1>
      <p className="text-muted">{t.intro}</p>
      {notice && (
        <Alert variant="success" dismissible onClose={() => setNotice(null)}>
          {notice}
        </Alert>
      )}
      {body}
    </div>
  );
}
