import { Fragment } from 'react';
import { Button, Modal } from 'react-bootstrap';
import { auditUi as t, type AuditEntryView } from '@herald/contract';
import { formatDateTime, orDash } from '../../lib/format';
import { changeLines } from './audit-data';

/** One entry in full: every field, the origin (or that it is hidden), every change. */
export function AuditEntryDialog(props: { entry: AuditEntryView; onHide: () => void }) {
  const { entry: e, onHide } = props;
  const lines = changeLines(e.changes);
  const origin = (v: string | null) => (e.originHidden ? t.hidden : orDash(v));
  const rows: [string, string][] = [
    ['Time', formatDateTime(e.at)],
    ['Actor', `${e.actor.label}${e.actor.role ? ` (${e.actor.role})` : ''}`],
    [t.apiKey, orDash(e.actor.apiKeyId)],
    ['Action', e.action],
    ['Target', `${e.target.type}: ${e.target.label ?? '-'}`],
    ['Target ID', orDash(e.target.id)],
    ['IP', origin(e.ip)],
    ['User agent', origin(e.userAgent)],
  ];
  return (
    <Modal show onHide={onHide} centered aria-labelledby="audit-entry-title">
      <Modal.Header closeButton>
        <Modal.Title id="audit-entry-title" as="h2" className="h5">
          {t.detailsTitle}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <dl className="row mb-0">
          {rows.map(([k, v]) => (
            <Fragment key={k}>
              <dt className="col-sm-4">{k}</dt>
              <dd className="col-sm-8 text-break">{v}</dd>
            </Fragment>
          ))}
          <dt className="col-sm-4">Changes</dt>
          <dd className="col-sm-8 text-break mb-0">
            {lines.length === 0 ? (
              t.noChanges
            ) : (
              <ul className="list-unstyled mb-0">
                {lines.map((l) => (
                  <li key={l}>{l}</li>
                ))}
              </ul>
            )}
          </dd>
        </dl>
      </Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={onHide}>
          {t.close}
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
