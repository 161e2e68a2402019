import { Alert, Card, Col, Row, Table } from 'react-bootstrap';
import { ui } from '@herald/contract';
import { useStorageUsage } from '../../api/backup/storage-usage';
import { LoadingSpinner } from '../../components/loading-spinner';
import { CleanupCard } from './cleanup-card';
import { ScrollBox } from '../../components/scroll-box';

/** Storage Management (/storage, Admin): sizes in MB, rows per table, cleanup. */
export function StoragePage() {
  const usage = useStorageUsage();
  return (
    <div>
      <h1 className="h3 mb-3">{ui.backup.storageTitle}</h1>
      {usage.isError && <Alert variant="danger">{ui.backup.storageLoadFailed}</Alert>}
      {usage.isPending && <LoadingSpinner />}
      {usage.data && (
        <>
          <Row className="g-3 mb-4">
            <Col md={6}>
              <Card className="h-100 text-center" data-testid="file-storage">
                <Card.Body>
                  <Card.Title as="h2" className="h6 text-muted">
                    {ui.backup.fileStorage}
                  </Card.Title>
                  <div className="fs-3 fw-semibold">
                    {ui.backup.megabytes(usage.data.fileStorage.megabytes)}
                  </div>
                </Card.Body>
              </Card>
            </Col>
            <Col md={6}>
              <Card className="h-100 text-center" data-testid="database-storage">
                <Card.Body>
                  <Card.Title as="h2" className="h6 text-muted">
                    {ui.backup.databaseStorage}
                  </Card.Title>
                  <div className="fs-3 fw-semibold">
                    {ui.backup.megabytes(usage.data.databaseStorage.megabytes)}
                  </div>
                </Card.Body>
              </Card>
            </Col>
          </Row>
          <Card className="mb-4">
            <Card.Header as="h2" className="h5">
              {ui.backup.collections}
            </Card.Header>
            <Card.Body>
              <ScrollBox label={ui.backup.collections}>
                <Table hover size="sm" className="mb-0" data-testid="collections">
                  <thead>
                    <tr>
                      <th>{ui.backup.collectionName}</th>
                      <th className="text-end">{ui.backup.collectionCount}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {usage.data.databaseStorage.collections.map((c) => (
                      <tr key={c.name}>
                        <td>{c.name}</td>
                        <td className="text-end">{c.count.toLocaleString('en-IN')}</td>
                      </tr>
                    ))}
                  </tbody>
                </Table>
              </ScrollBox>
            </Card.Body>
          </Card>
        </>
      )}
      <CleanupCard />
    </div>
  );
}
