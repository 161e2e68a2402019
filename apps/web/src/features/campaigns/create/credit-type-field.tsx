import { Form } from 'react-bootstrap';
import { CREDIT_TYPES, hasCta, hasDp, ui, type CreditType, formatCount } from '@herald/contract';

interface CreditTypeFieldProps {
  value: CreditType;
  /** The owner's balance per type; undefined while loading. */
  balances: Partial<Record<CreditType, number>> | undefined;
  error: string | undefined;
  disabled: boolean;
  onChange: (type: CreditType) => void;
}

function isCreditType(value: string): value is CreditType {
  return (CREDIT_TYPES as readonly string[]).includes(value);
}

/** One line on what a type adds to a plain message; none for the plain types. */
export function typeExplanation(type: CreditType): string | null {
  if (type.startsWith('Own Number')) return ui.campaigns.typeExplainOwnNumber;
  const lines: string[] = [];
  if (hasDp(type)) lines.push(ui.campaigns.typeExplainDp);
  if (hasCta(type)) lines.push(ui.campaigns.typeExplainCta);
  return lines.length ? lines.join(' ') : null;
}

/**
 * The credit type, each with the owner's balance; a type with none cannot be chosen (the
 * server would refuse the campaign). The chosen one stays selectable so the form never jumps.
 */
export function CreditTypeField(props: CreditTypeFieldProps) {
  const { value, balances, error, disabled, onChange } = props;
  const explanation = typeExplanation(value);
  return (
    <Form.Group className="mb-3" controlId="campaign-credit-type">
      <Form.Label>Credit Type</Form.Label>
      <Form.Select
        value={value}
        disabled={disabled}
        isInvalid={!!error}
        onChange={(e) => {
          if (isCreditType(e.target.value)) onChange(e.target.value);
        }}
      >
        {CREDIT_TYPES.map((type) => {
          const balance = balances ? (balances[type] ?? 0) : undefined;
          return (
            <option key={type} value={type} disabled={balance === 0 && type !== value}>
              {balance === undefined ? type : `${type} (${formatCount(balance)})`}
            </option>
          );
        })}
      </Form.Select>
      {explanation && <Form.Text muted>{explanation}</Form.Text>}
      <Form.Control.Feedback type="invalid">{error}</Form.Control.Feedback>
    </Form.Group>
  );
}
