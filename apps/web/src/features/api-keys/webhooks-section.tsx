import { useCallback, useState } from 'react';
import { Alert, Button, Card } from 'react-bootstrap';
import { useQueryClient } from '@tanstack/react-query';
import { ui, type WebhookEndpoint } from '@herald/contract';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { DataTable } from '../../components/data-table';
import { LoadingSpinner } from '../../components/loading-spinner';
import { errorMessage } from '../../lib/api-client';
import { useWebhooks, webhooksQueryOptions } from '../../api/webhooks/get-webhooks';
import { webhookDeliveriesQueryOptions } from '../../api/webhooks/get-webhook-deliveries';
import {
  useDeleteWebhook,
  useRotateWebhookSecret,
  useTestWebhook,
  useUpdateWebhook,
} from '../../api/webhooks/webhook-mutations';
import { webhookColumns, type WebhookAction } from './webhook-columns';
import { WebhookDeliveries } from './webhook-deliveries';
import { WebhookFormDialog } from './webhook-form-dialog';
import { WebhookSecretDialog, type ShownSecret } from './webhook-secret-dialog';
import { WebhookThresholdForm } from './webhook-threshold-form';
import type { TestPoll } from './webhooks-logic';

const t = ui.webhooks;

type Open =
  | { action: 'add'; endpoint: null }
  | { action: 'edit' | 'toggle' | 'rotate' | 'delete'; endpoint: WebhookEndpoint };
type Notice = { text: string; failed: boolean };

/**
 * The Webhooks section of API & Webhooks (docs/api.md, Webhooks): the caller's endpoints with
 * their state and last delivery; adding one (its secret shown once), editing, disabling or
 * enabling, rotating the secret (shown once), deleting, a log of one endpoint's deliveries with
 * "Send test event", and the low-balance threshold.
 */
export function WebhooksSection() {
  const queryClient = useQueryClient();
  const list = useWebhooks();
  const [open, setOpen] = useState<Open | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [secret, setSecret] = useState<ShownSecret | null>(null);
  const [logOf, setLogOf] = useState<string | null>(null);
  const [poll, setPoll] = useState<TestPoll | null>(null);
  const [testNotice, setTestNotice] = useState<string | null>(null);
  const update = useUpdateWebhook();
  const remove = useDeleteWebhook();
  const rotate = useRotateWebhookSecret();
  const test = useTestWebhook();
  const close = () => setOpen(null);
  const said = (text: string) => setNotice({ text, failed: false });
  const failed = (err: unknown) =>
    setNotice({ text: errorMessage(err, t.actionFailed), failed: true });

  const setEnabled = (e: WebhookEndpoint, enabled: boolean) =>
    update.mutate(
      { id: e.id, body: { enabled } },
      { onSuccess: (r) => said(r.message), onError: failed, onSettled: close },
    );

  const showLog = (id: string) => {
    if (id !== logOf) {
      setPoll(null);
      setTestNotice(null);
    }
    setLogOf(id);
  };

  const sendTest = async (e: WebhookEndpoint) => {
    showLog(e.id);
    setTestNotice(null);
    // The newest delivery before the test: the log is polled until a newer one shows.
    const before = await queryClient
      .fetchInfiniteQuery(webhookDeliveriesQueryOptions(e.id))
      .then((data) => data.pages[0]?.deliveries[0]?.id ?? null)
      .catch(() => null);
    test.mutate(e.id, {
      onSuccess: (r) => {
        setTestNotice(r.message);
        setPoll({ since: Date.now(), before });
      },
      onError: (err) => setTestNotice(errorMessage(err, t.testFailed)),
    });
  };

  const pollDone = useCallback(() => {
    setPoll(null);
    void queryClient.invalidateQueries({ queryKey: webhooksQueryOptions().queryKey });
  }, [queryClient]);

  const act = (e: WebhookEndpoint, action: WebhookAction) => {
    setNotice(null);
    if (action === 'deliveries') showLog(e.id);
    else if (action === 'test') void sendTest(e);
    // Enabling holds nothing back: no question. Disabling stops deliveries: asked first.
    else if (action === 'toggle' && !e.enabled) setEnabled(e, true);
    else setOpen({ action, endpoint: e });
  };

  const busy = update.isPending
    ? update.variables.id
    : remove.isPending
      ? remove.variables
      : rotate.isPending
        ? rotate.variables
        : null;
  const endpoints = list.data?.endpoints ?? [];
  const logged = endpoints.find((e) => e.id === logOf);
  const target = open?.endpoint ?? null;

  return (
    <Card className="shadow-sm mt-3">
      <Card.Body>
        <div className="d-flex flex-wrap gap-2 justify-content-between align-items-center mb-2">
          <h2 className="h5 mb-0">{t.title}</h2>
          <Button
            size="sm"
            disabled={!list.data}
            onClick={() => {
              setNotice(null);
              setOpen({ action: 'add', endpoint: null });
            }}
          >
            {t.addButton}
          </Button>
        </div>
        <p className="text-muted small mb-3">
          {t.intro} {t.limitHint}
        </p>
        {notice && (
          <Alert
            variant={notice.failed ? 'danger' : 'success'}
            role={notice.failed ? 'alert' : 'status'}
          >
            {notice.text}
          </Alert>
        )}
        {list.isPending ? (
          <LoadingSpinner label={t.loading} />
        ) : list.isError ? (
          <Alert variant="danger" className="mb-0">
            {errorMessage(list.error, t.loadFailed)}
          </Alert>
        ) : (
          <>
            <DataTable
              aria-label={t.listLabel}
              columns={webhookColumns(act, busy)}
              rows={endpoints}
              rowKey={(e) => e.id}
              emptyText={t.empty}
            />
            {logged && (
              <WebhookDeliveries
                endpoint={logged}
                poll={poll}
                onPollDone={pollDone}
                testNotice={testNotice}
                testBusy={test.isPending}
                onTest={() => void sendTest(logged)}
                onClose={() => setLogOf(null)}
              />
            )}
            <hr />
            <h3 className="h6">{t.thresholdTitle}</h3>
            <WebhookThresholdForm saved={list.data.lowBalanceThreshold} />
          </>
        )}
      </Card.Body>
      {(open?.action === 'add' || open?.action === 'edit') && list.data && (
        <WebhookFormDialog
          endpoint={open.action === 'edit' ? target : null}
          httpsOnly={list.data.httpsOnly}
          onHide={close}
          onCreated={(r) => {
            close();
            setSecret({ url: r.endpoint.url, message: r.message, secret: r.secret });
          }}
          onSaved={(message) => {
            close();
            said(message);
          }}
        />
      )}
      <ConfirmDialog
        show={open?.action === 'toggle'}
        title={t.disableTitle}
        confirmLabel={t.actions.disable}
        variant="danger"
        busy={update.isPending}
        onCancel={close}
        onConfirm={() => target && setEnabled(target, false)}
      >
        {target ? t.disableConfirm(target.url) : ''}
      </ConfirmDialog>
      <ConfirmDialog
        show={open?.action === 'rotate'}
        title={t.rotateTitle}
        confirmLabel={t.rotateButton}
        busy={rotate.isPending}
        onCancel={close}
        onConfirm={() =>
          target &&
          rotate.mutate(target.id, {
            onSuccess: (r) => setSecret({ url: target.url, message: r.message, secret: r.secret }),
            onError: failed,
            onSettled: close,
          })
        }
      >
        {target ? t.rotateConfirm(target.url) : ''}
      </ConfirmDialog>
      <ConfirmDialog
        show={open?.action === 'delete'}
        title={t.deleteTitle}
        confirmLabel={t.deleteButton}
        variant="danger"
        busy={remove.isPending}
        onCancel={close}
        onConfirm={() =>
          target &&
          remove.mutate(target.id, {
            onSuccess: (r) => {
              if (logOf === target.id) setLogOf(null);
              said(r.message);
            },
            onError: failed,
            onSettled: close,
          })
        }
      >
        {target ? t.deleteConfirm(target.url) : ''}
      </ConfirmDialog>
      <WebhookSecretDialog shown={secret} onDone={() => setSecret(null)} />
    </Card>
  );
}
