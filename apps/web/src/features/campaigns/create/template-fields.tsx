import { Alert, Col, Form, Row } from 'react-bootstrap';
import { ui, type SenderTemplate } from '@herald/contract';
import { errorMessage } from '../../../lib/api-client';
import { templatePreview, valueRefused, type TemplateChoice } from './template-choice';

const t = ui.templates;

interface TemplateFieldsProps {
  offered: readonly SenderTemplate[];
  choice: TemplateChoice;
  template: SenderTemplate | null;
  loadError: unknown;
  /** The values' message after a refused submit. */
  error: string | undefined;
  disabled: boolean;
  onChoose: (templateId: string) => void;
  onValue: (index: number, value: string) => void;
}

const ERROR_ID = 'campaign-template-values-error';

/**
 * The Template select when the credit type's sender has templates ("No template" sends the
 * message box as before), an input per variable and the template's text as it will be sent.
 */
export function TemplateFields(props: TemplateFieldsProps) {
  const { offered, choice, template, error, disabled } = props;
  if (props.loadError) {
    return (
      <Alert variant="warning" className="py-2">
        {errorMessage(props.loadError, t.campaignLoadFailed)}
      </Alert>
    );
  }
  if (offered.length === 0) return null;
  return (
    <>
      <Form.Group className="mb-3" controlId="campaign-template">
        <Form.Label>{t.templateLabel}</Form.Label>
        <Form.Select
          value={template?.id ?? ''}
          disabled={disabled}
          aria-describedby={template ? 'campaign-template-hint' : undefined}
          onChange={(e) => props.onChoose(e.target.value)}
        >
          <option value="">{t.noTemplate}</option>
          {offered.map((x) => (
            <option key={x.id} value={x.id}>
              {t.optionLabel(x.name, x.language)}
            </option>
          ))}
        </Form.Select>
        {template && (
          <Form.Text id="campaign-template-hint" muted>
            {t.templateHint}
          </Form.Text>
        )}
      </Form.Group>
      {template && (
        <fieldset className="mb-3">
          <legend className="visually-hidden">{t.templateLabel}</legend>
          {template.variables > 0 && (
            <Row>
              {choice.values.map((value, i) => {
                const invalid = !!error && valueRefused(value);
                return (
                  <Col md={6} key={i}>
                    <Form.Group className="mb-2" controlId={`campaign-template-value-${i + 1}`}>
                      <Form.Label>{t.variableLabel(i + 1)}</Form.Label>
                      <Form.Control
                        value={value}
                        disabled={disabled}
                        autoComplete="off"
                        isInvalid={invalid}
                        aria-invalid={invalid || undefined}
                        aria-describedby={error ? ERROR_ID : undefined}
                        onChange={(e) => props.onValue(i, e.target.value)}
                      />
                    </Form.Group>
                  </Col>
                );
              })}
            </Row>
          )}
          {error && (
            <div id={ERROR_ID} className="invalid-feedback d-block mb-2">
              {error}
            </div>
          )}
          <div className="small text-muted mb-1" id="campaign-template-preview-label">
            {t.previewLabel}
          </div>
          <div
            className="border rounded p-2 bg-light text-break"
            style={{ whiteSpace: 'pre-wrap' }}
            aria-labelledby="campaign-template-preview-label"
            role="region"
            aria-live="polite"
            data-testid="template-preview"
          >
            {templatePreview(choice, template)}
          </div>
        </fieldset>
      )}
    </>
  );
}
