import { Alert, Card, Form } from 'react-bootstrap';
import { twoFactorUi as t } from '@herald/contract';
import { errorMessage } from '../../lib/api-client';
import { useSaveSecuritySettings, useSecuritySettings } from '../../api/users/two-factor-admin';
import { AuditRetentionField } from './audit-retention-field';

/**
 * Admin-only, on User Management: require two-factor sign-in for Admins and Resellers. The
 * switch saves at once; the server refuses it while the Admin has none of their own. Below it,
 * how long audit entries are kept.
 */
export function SecuritySettingsCard() {
  const settings = useSecuritySettings();
  const save = useSaveSecuritySettings();

  return (
    <Card className="shadow-sm mb-3">
      <Card.Header as="h2" className="h6 mb-0">
        {t.settingTitle}
      </Card.Header>
      <Card.Body>
        {settings.isError && <Alert variant="danger">{t.settingLoadFailed}</Alert>}
        {save.isError && (
          <Alert variant="danger">{errorMessage(save.error, t.settingFailed)}</Alert>
        )}
        <Form.Check
          type="switch"
          id="require-two-factor"
          label={t.settingLabel}
          checked={settings.data?.requireTwoFactor ?? false}
          disabled={!settings.data || save.isPending}
          aria-describedby="require-two-factor-hint"
          onChange={(e) => save.mutate({ requireTwoFactor: e.target.checked })}
        />
        <Form.Text id="require-two-factor-hint" muted>
          {t.settingHint}
        </Form.Text>
        <AuditRetentionField
          saved={settings.data?.auditRetentionDays}
          pending={save.isPending}
          onSave={(change) =>
            settings.data &&
            save.mutate({ requireTwoFactor: settings.data.requireTwoFactor, ...change })
          }
        />
      </Card.Body>
    </Card>
  );
}
