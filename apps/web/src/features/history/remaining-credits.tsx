import { memo } from 'react';
import { Card, Col, Row } from 'react-bootstrap';
import type { HistoryLists } from './history-data';

/** 'Your Remaining Credits': one tile per credit type, four per row. */
export const RemainingCredits = memo(function RemainingCredits({
  credits,
}: {
  credits: HistoryLists['remaining'];
}) {
  if (credits.length === 0) return null;
  return (
    <Card className="shadow-sm mb-3">
      <Card.Header as="h2" className="h5 mb-0">
        Your Remaining Credits
      </Card.Header>
      <Card.Body>
        <Row className="g-3">
          {credits.map((c) => (
            <Col md={3} key={c.creditType}>
              <section className="border rounded p-3 h-100" aria-label={c.creditType}>
                <div className="small text-muted">{c.creditType}</div>
                <div className="fs-4 fw-bold">{c.balance}</div>
              </section>
            </Col>
          ))}
        </Row>
      </Card.Body>
    </Card>
  );
});
