import { useState } from 'react';
import { Alert, Button, Card, Spinner, Table } from 'react-bootstrap';
import { ui } from '@herald/contract';
import { useBackupDownload } from '../../api/backup/backup-download';
import { useBackupSave } from '../../api/backup/backup-save';
import { downloadSavedBackup, useSavedBackups } from '../../api/backup/saved-backups';
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
  const save = useBackupSave();
  const saved = useSavedBackups();
  const [savedError, setSavedError] = useState<string | null>(null);
  const busy = download.phase !== 'idle';
  const saving = save.phase !== 'idle';

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
          {save.error && (
            <Alert variant="danger" dismissible onClose={save.dismiss}>
              {save.error}
            </Alert>
          )}
          {save.success && (
            <Alert variant="success" dismissible onClose={save.dismiss}>
              {save.success}
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
          {save.phase === 'queued' && (
            <div className="mb-3 small" data-testid="backup-save-progress">
              <Spinner size="sm" className="me-2" aria-hidden="true" />
              {ui.backup.saveQueued}
            </div>
          )}
          {save.phase === 'building' && (
            <div className="mb-3" data-testid="backup-save-progress">
              <div className="small mb-1">{ui.backup.saving(save.rows, save.totalRows)}</div>
              <ProgressMeter
                animated
                now={percent(save.rows, save.totalRows)}
                label={ui.backup.saving(save.rows, save.totalRows)}
                text={`${percent(save.rows, save.totalRows)}%`}
              />
            </div>
          )}
          <div className="d-flex flex-wrap gap-2">
            <Button onClick={() => void download.start()} disabled={busy}>
              {busy && <Spinner size="sm" className="me-2" aria-hidden="true" />}
              {ui.backup.download}
            </Button>
            <Button variant="outline-primary" onClick={() => void save.start()} disabled={saving}>
              {saving && <Spinner size="sm" className="me-2" aria-hidden="true" />}
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
