import type { ReactNode } from 'react';
import { Card } from 'react-bootstrap';

export interface DetailRow {
  label: string;
  value: ReactNode;
}

/** A titled card of label/value pairs (a description list). */
export function DetailCard({ title, rows }: { title: string; rows: readonly DetailRow[] }) {
  return (
    <Card className="h-100 shadow-sm">
      <Card.Header as="h2" className="h6 mb-0">
        {title}
      </Card.Header>
      <Card.Body>
        <dl className="mb-0">
          {rows.map((r) => (
            <div key={r.label} className="row g-0 py-1 border-bottom">
              <dt className="col-5 fw-semibold">{r.label}</dt>
              <dd className="col-7 mb-0 text-break">{r.value}</dd>
            </div>
          ))}
        </dl>
      </Card.Body>
    </Card>
  );
}
