import { useState } from 'react';
import { Alert, Button, Card, Spinner, Table } from 'react-bootstrap';
import { ui } from '@herald/contract';
import { useBackupDownload } from '../../api/backup/backup-download';
import {
  downloadSavedBackup,
  useSavedBackups,
  useSaveBackupToServer,
} from '../../api/backup/saved-backups';
import { errorMessage } from '../../lib/api-client';
import { formatBytes, formatDateTime } from '../../lib/format';
import { CleanupCard } from './cleanup-card';
import { ProgressMeter } from '../../components/progress-meter';
import { ScrollBox } from '../../components/scroll-box';

/** Percent of the build done: rows written over rows expected (an estimate for big tables). */
function percent(rows: number, total: number): number {
  if (total <= 0) return 0;
  return Math.min(100, Math.round((rows / total) * 100));
}

/** Backup & Data Management (/backup, Admin). */
export function BackupPage() {
  const download = useBackupDownload();
  const save = useSaveBackupToServer();
  const saved = useSavedBackups();
  const [saveMessage, setSaveMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [savedError, setSavedError] = useState<string | null>(null);
  const busy = download.phase !== 'idle';

  const saveToServer = () => {
    setSaveMessage(null);
    save.mutate(undefined, {
      onSuccess: (reply) => setSaveMessage({ ok: true, text: reply.message }),
      onError: () => setSaveMessage({ ok: false, text: ui.backup.saveFailed }),
    });
  };

  const fetchSaved = (name: string) => {
    setSavedError(null);
    downloadSavedBackup(name).catch((err: unknown) =>
      setSavedError(errorMessage(err, ui.backup.downloadFailed)),
    );
  };

  return (
    <div>
      <h1 className="h3 mb-3">{ui.backup.title}</h1>
      <Card className="mb-4">
        <Card.Header as="h2" className="h5">
          {ui.backup.fullBackup}
        </Card.Header>
        <Card.Body>
          <p className="text-muted">{ui.backup.fullBackupHint}</p>
          {download.error && (
            <Alert variant="danger" dismissible onClose={download.dismiss}>
              {download.error}
            </Alert>
          )}
          {download.success && (
            <Alert variant="success" dismissible={!busy} onClose={download.dismiss}>
              {download.success}
            </Alert>
          )}
          {saveMessage && (
            <Alert
              variant={saveMessage.ok ? 'success' : 'danger'}
              dismissible
              onClose={() => setSaveMessage(null)}
            >
              {saveMessage.text}
            </Alert>
          )}
          {download.phase === 'building' && (
            <div className="mb-3" data-testid="backup-progress">
              <div className="small mb-1">
                {ui.backup.building(download.rows, download.totalRows)}
              </div>
              <ProgressMeter
                animated
                now={percent(download.rows, download.totalRows)}
                label={ui.backup.building(download.rows, download.totalRows)}
                text={`${percent(download.rows, download.totalRows)}%`}
              />
            </div>
          )}
          {download.phase === 'downloading' && (
            <div className="mb-3 small" data-testid="backup-progress">
              <Spinner size="sm" className="me-2" aria-hidden="true" />
              {ui.backup.downloading} {formatBytes(download.bytes)}
            </div>
          )}
          <div className="d-flex flex-wrap gap-2">
            <Button onClick={() => void download.start()} disabled={busy}>
              {busy && <Spinner size="sm" className="me-2" aria-hidden="true" />}
              {ui.backup.download}
            </Button>
            <Button variant="outline-primary" onClick={saveToServer} disabled={save.isPending}>
              {save.isPending && <Spinner size="sm" className="me-2" aria-hidden="true" />}
              {ui.backup.saveToServer}
            </Button>
          </div>
        </Card.Body>
      </Card>

      <Card className="mb-4">
        <Card.Header as="h2" className="h5">
          {ui.backup.savedBackups}
        </Card.Header>
        <Card.Body>
          {savedError && (
            <Alert variant="danger" dismissible onClose={() => setSavedError(null)}>
              {savedError}
            </Alert>
          )}
          {saved.isPending ? (
            <Spinner size="sm" role="status" aria-label={ui.backup.loading} />
          ) : saved.data?.backups.length ? (
            <ScrollBox label={ui.backup.savedBackups}>
              <Table hover size="sm" className="mb-0">
                <thead>
                  <tr>
                    <th>{ui.backup.fileName}</th>
                    <th>{ui.backup.size}</th>
                    <th>{ui.backup.date}</th>
                    <th />
                  </tr>
                </thead>
                <tbody>
                  {saved.data.backups.map((b) => (
                    <tr key={b.name}>
                      <td className="text-break">{b.name}</td>
                      <td>{formatBytes(b.size)}</td>
                      <td>{formatDateTime(b.createdAt)}</td>
                      <td className="text-end">
                        <Button size="sm" variant="link" onClick={() => fetchSaved(b.name)}>
                          Download
                        </Button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </Table>
            </ScrollBox>
          ) : (
            <p className="text-muted mb-0">{ui.backup.noSavedBackups}</p>
          )}
        </Card.Body>
      </Card>

      <CleanupCard />
    </div>
  );
}
