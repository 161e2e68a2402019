import { memo } from 'react';
import { Alert, Button, Spinner } from 'react-bootstrap';
import { AUDIT_TARGET_TYPES, auditUi as t } from '@herald/contract';
import { FilterCol, FiltersCard, SelectFilter } from '../../components/filters-card';
import { TextField } from '../../components/form-field';
import { useExportAuditLog } from '../../api/audit/export-audit-log';
import { EMPTY_AUDIT_FILTERS, type AuditFilterValues } from '../../api/audit/get-audit-log';
import { ACTION_OPTIONS } from './audit-data';

interface AuditFiltersProps {
  values: AuditFilterValues;
  onChange: (values: AuditFilterValues) => void;
  /** False while loading or when there are no rows. */
  canExport: boolean;
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
      <FilterCol>
        <TextField
          className="mb-0"
          controlId="audit-actor"
          label={t.actorLabel}
          placeholder={t.actorPlaceholder}
          value={values.actor}
          onChange={set('actor')}
        />
      </FilterCol>
      <SelectFilter
        controlId="audit-action"
        label={t.actionLabel}
        placeholder={t.allActions}
        options={ACTION_OPTIONS}
        value={values.action}
        onChange={set('action')}
      />
      <SelectFilter
        controlId="audit-target-type"
        label={t.targetTypeLabel}
        placeholder={t.allTargetTypes}
        options={AUDIT_TARGET_TYPES}
        value={values.targetType}
        onChange={set('targetType')}
      />
      <FilterCol>
        <TextField
          className="mb-0"
          controlId="audit-target"
          label={t.targetLabel}
          placeholder={t.targetPlaceholder}
          value={values.target}
          onChange={set('target')}
        />
      </FilterCol>
    </FiltersCard>
  );
});
