import { useState, type FormEvent } from 'react';
import { Button, Form, InputGroup } from 'react-bootstrap';
import {
  AUDIT_RETENTION_MAX_DAYS,
  AUDIT_RETENTION_MIN_DAYS,
  auditUi as t,
  AuditRetentionDaysSchema,
  type SecuritySettings,
} from '@herald/contract';

interface AuditRetentionFieldProps {
  /** The saved retention; undefined while the settings load. */
  saved: number | undefined;
  pending: boolean;
  onSave: (change: Pick<SecuritySettings, 'auditRetentionDays'>) => void;
}

/** Admin: how many days audit entries are kept (docs/audit.md, Retention). */
export function AuditRetentionField({ saved, pending, onSave }: AuditRetentionFieldProps) {
  const [draft, setDraft] = useState<string | null>(null);
  const value = draft ?? (saved === undefined ? '' : String(saved));
  const parsed = AuditRetentionDaysSchema.safeParse(Number(value));
  const error = draft !== null && !parsed.success ? parsed.error.issues[0]?.message : undefined;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!parsed.success) return;
    onSave({ auditRetentionDays: parsed.data });
    setDraft(null);
  };
  return (
    <Form className="mt-3" onSubmit={submit} noValidate>
      <Form.Label htmlFor="audit-retention-days">{t.retentionLabel}</Form.Label>
      <InputGroup hasValidation style={{ maxWidth: 320 }}>
        <Form.Control
          id="audit-retention-days"
          type="number"
          inputMode="numeric"
          min={AUDIT_RETENTION_MIN_DAYS}
          max={AUDIT_RETENTION_MAX_DAYS}
          value={value}
          disabled={saved === undefined || pending}
          isInvalid={!!error}
          aria-describedby="audit-retention-hint"
          onChange={(e) => setDraft(e.target.value)}
        />
        <Button
          type="submit"
          variant="primary"
          disabled={draft === null || !!error || pending || parsed.data === saved}
        >
          Save
        </Button>
        {error && <Form.Control.Feedback type="invalid">{error}</Form.Control.Feedback>}
      </InputGroup>
      <Form.Text id="audit-retention-hint" muted>
        {t.retentionHelp}
      </Form.Text>
    </Form>
  );
}
