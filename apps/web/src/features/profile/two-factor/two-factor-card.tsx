import { useState } from 'react';
import { Alert, Button, Card, Modal } from 'react-bootstrap';
import { twoFactorUi as t } from '@herald/contract';
import { LoadingSpinner } from '../../../components/loading-spinner';
import { StatusBadge } from '../../../components/status-badge';
import { updateSessionUser } from '../../../lib/auth-store';
import { useTwoFactorStatus } from '../../../api/profile/two-factor';
import { DisableTwoFactorDialog, RegenerateCodesDialog } from './two-factor-code-dialog';
import { TwoFactorSetup } from './two-factor-setup';

type Open = 'setup' | 'disable' | 'regenerate' | null;

/** My Profile's two-factor sign-in: its state, set-up, turning off and new recovery codes. */
export function TwoFactorCard() {
  const status = useTwoFactorStatus();
  const [open, setOpen] = useState<Open>(null);
  const close = () => setOpen(null);

  let body;
  if (status.isPending) body = <LoadingSpinner />;
  else if (status.isError) body = <Alert variant="danger">{t.loadFailed}</Alert>;
  else {
    const { enabled, recoveryCodesLeft, required } = status.data;
    body = (
      <>
        <p>{t.intro}</p>
        {required && <p className="text-muted">{t.requiredNote}</p>}
        {enabled && <p>{t.recoveryLeft(recoveryCodesLeft)}</p>}
        <div className="d-flex flex-wrap gap-2">
          {enabled ? (
            <>
              <Button variant="outline-primary" onClick={() => setOpen('regenerate')}>
                {t.regenerate}
              </Button>
              {!required && (
                <Button variant="outline-danger" onClick={() => setOpen('disable')}>
                  {t.disable}
                </Button>
              )}
            </>
          ) : (
            <Button onClick={() => setOpen('setup')}>{t.enable}</Button>
          )}
        </div>
      </>
    );
  }

  return (
    <Card className="shadow-sm mb-3">
      <Card.Header className="d-flex justify-content-between align-items-center">
        <h2 className="h6 mb-0">{t.title}</h2>
        {status.data && (
          <StatusBadge
            label={status.data.enabled ? t.statusOn : t.statusOff}
            variant={status.data.enabled ? 'success' : 'secondary'}
          />
        )}
      </Card.Header>
      <Card.Body>{body}</Card.Body>
      {open === 'setup' && (
        <Modal show onHide={close} backdrop="static" aria-labelledby="two-factor-setup-title">
          <Modal.Header closeButton>
            <Modal.Title id="two-factor-setup-title" as="h2" className="h5">
              {t.setupTitle}
            </Modal.Title>
          </Modal.Header>
          <Modal.Body>
            <TwoFactorSetup
              onEnabled={() => updateSessionUser({ twoFactorEnabled: true })}
              onDone={close}
              onCancel={close}
            />
          </Modal.Body>
        </Modal>
      )}
      {open === 'disable' && <DisableTwoFactorDialog onHide={close} />}
      {open === 'regenerate' && <RegenerateCodesDialog onHide={close} />}
    </Card>
  );
}
