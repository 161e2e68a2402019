import { useState } from 'react';
import { Alert, Button, Card, Table } from 'react-bootstrap';
import { ui, type Sender } from '@herald/contract';
import { LoadingSpinner } from '../../components/loading-spinner';
import { errorMessage } from '../../lib/api-client';
import { useSenders } from '../../api/delivery/get-senders';
import { SenderFormDialog } from './sender-form-dialog';
import { ScrollBox } from '../../components/scroll-box';

/**
 * Delivery Settings (/delivery-settings, Admin): each sender's rate per second and
 * daily limit, shared by every app instance, with what it sent today (UTC).
 */
export function DeliverySettingsPage() {
  const senders = useSenders();
  const [editing, setEditing] = useState<Sender | null>(null);
  const [saved, setSaved] = useState<string | null>(null);

  let body;
  if (senders.isPending) body = <LoadingSpinner label="Loading senders..." />;
  else if (senders.isError) {
    body = (
      <Alert variant="danger">{errorMessage(senders.error, ui.delivery.sendersLoadFailed)}</Alert>
    );
  } else {
    body = (
      <Card className="shadow-sm">
        <Card.Body>
          <ScrollBox label="Senders">
            <Table hover className="mb-0 align-middle" aria-label="Senders">
              <thead>
                <tr>
                  <th>Name</th>
                  <th>Provider</th>
                  <th className="text-end">Rate per second</th>
                  <th className="text-end">Daily limit</th>
                  <th className="text-end">Sent today</th>
                  <th>Actions</th>
                </tr>
              </thead>
              <tbody>
                {senders.data.map((s) => (
                  <tr key={s.id}>
                    <td>
                      {s.name}
                      {s.isDefault && <span className="badge text-bg-secondary ms-2">Default</span>}
                    </td>
                    <td>{s.provider}</td>
                    <td className="text-end">{s.ratePerSecond.toLocaleString()}</td>
                    <td className="text-end">
                      {s.dailyLimit === null
                        ? ui.delivery.unlimited
                        : s.dailyLimit.toLocaleString()}
                    </td>
                    <td className="text-end">{s.sentToday.toLocaleString()}</td>
                    <td>
                      <Button
                        size="sm"
                        variant="outline-primary"
                        aria-label={`Edit ${s.name}`}
                        onClick={() => {
                          setSaved(null);
                          setEditing(s);
                        }}
                      >
                        Edit
                      </Button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </Table>
          </ScrollBox>
        </Card.Body>
      </Card>
    );
  }

  return (
    <div>
      <h1 className="h3 mb-3">{ui.delivery.settingsTitle}</h1>
      {saved && (
        <Alert variant="success" dismissible onClose={() => setSaved(null)}>
          {saved}
        </Alert>
      )}
      {body}
      {editing && (
        <SenderFormDialog
          sender={editing}
          onHide={() => setEditing(null)}
          onSaved={(s) => {
            setSaved(ui.delivery.senderSaved(s.name));
            setEditing(null);
          }}
        />
      )}
    </div>
  );
}
