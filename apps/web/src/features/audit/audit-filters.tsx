import { memo } from 'react';
import type { ReactNode } from 'react';
import { Alert, Button, Col, Spinner } from 'react-bootstrap';
import { AUDIT_TARGET_TYPES, auditUi as t } from '@herald/contract';
import { FiltersCard } from '../../components/filters-card';
import { SelectField, TextField } from '../../components/form-field';
import { useExportAuditLog } from '../../api/audit/export-audit-log';
import { EMPTY_AUDIT_FILTERS, type AuditFilterValues } from '../../api/audit/get-audit-log';
import { ACTION_OPTIONS } from './audit-data';

interface AuditFiltersProps {
  values: AuditFilterValues;
  onChange: (values: AuditFilterValues) => void;
  /** False while loading or when there are no rows. */
  canExport: boolean;
}

/** Six filters: three a row on wide screens (the dates share the first with Actor), two on small. */
function Cell({ children }: { children: ReactNode }) {
  return (
    <Col sm={6} lg={4}>
      {children}
    </Col>
  );
}

/** The Audit Log's Filters card, Clear Filters and the CSV export of what they select. */
export const AuditFilters = memo(function AuditFilters(props: AuditFiltersProps) {
  const { values, onChange, canExport } = props;
  const exporter = useExportAuditLog();
  const set = (key: keyof AuditFilterValues) => (value: string) =>
    onChange({ ...values, [key]: value });

  return (
    <FiltersCard
      from={{
        controlId: 'audit-from',
        label: t.fromLabel,
        value: values.fromDate,
        onChange: set('fromDate'),
      }}
      to={{
        controlId: 'audit-to',
        label: t.toLabel,
        value: values.toDate,
        onChange: set('toDate'),
      }}
      onClear={() => onChange(EMPTY_AUDIT_FILTERS)}
      actions={
        <>
          <Button
            variant="success"
            disabled={!canExport || exporter.busy}
            onClick={() => void exporter.start(values)}
          >
            {t.exportCsv}
          </Button>
          {exporter.busy && (
            <span className="d-inline-flex align-items-center gap-2 text-muted" role="status">
              <Spinner animation="border" size="sm" aria-hidden="true" />
              {t.preparing}
            </span>
          )}
        </>
      }
      footer={
        exporter.error && (
          <Alert variant="danger" className="mt-3 mb-0" dismissible onClose={exporter.dismiss}>
            {exporter.error}
          </Alert>
        )
      }
    >
      <Cell>
        <TextField
          className="mb-0"
          controlId="audit-actor"
          label={t.actorLabel}
          placeholder={t.actorPlaceholder}
          value={values.actor}
          onChange={set('actor')}
        />
      </Cell>
      {/* Wide: the dates and Actor on the first row, the other three on the second. */}
      <div className="w-100 d-none d-lg-block" />
      <Cell>
        <SelectField
          className="mb-0"
          controlId="audit-action"
          label={t.actionLabel}
          placeholder={t.allActions}
          options={ACTION_OPTIONS}
          value={values.action}
          onChange={set('action')}
        />
      </Cell>
      <Cell>
        <SelectField
          className="mb-0"
          controlId="audit-target-type"
          label={t.targetTypeLabel}
          placeholder={t.allTargetTypes}
          options={AUDIT_TARGET_TYPES}
          value={values.targetType}
          onChange={set('targetType')}
        />
      </Cell>
      <Cell>
        <TextField
          className="mb-0"
          controlId="audit-target"
          label={t.targetLabel}
          placeholder={t.targetPlaceholder}
          value={values.target}
          onChange={set('target')}
        />
      </Cell>
    </FiltersCard>
  );
});
