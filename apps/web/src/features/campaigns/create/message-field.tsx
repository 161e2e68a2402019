import { Form } from 'react-bootstrap';
import { CAMPAIGN_MESSAGE_MAX, ui } from '@herald/contract';

interface MessageFieldProps {
  value: string;
  error: string | undefined;
  disabled: boolean;
  onChange: (message: string) => void;
}

/**
 * The message box with its counter against the contract's limit (counted as the server's
 * schema counts it); past the limit the box and the counter turn invalid before any submit.
 */
export function MessageField({ value, error, disabled, onChange }: MessageFieldProps) {
  const over = value.length > CAMPAIGN_MESSAGE_MAX;
  return (
    <Form.Group className="mb-3" controlId="campaign-message">
      <Form.Label>Message</Form.Label>
      <Form.Control
        as="textarea"
        rows={4}
        value={value}
        disabled={disabled}
        isInvalid={over || !!error}
        aria-describedby="campaign-message-counter"
        onChange={(e) => onChange(e.target.value)}
      />
      <div
        id="campaign-message-counter"
        data-testid="message-counter"
        className={`small text-end ${over ? 'text-danger fw-semibold' : 'text-muted'}`}
      >
        {ui.campaigns.messageCounter(String(value.length), String(CAMPAIGN_MESSAGE_MAX))}
      </div>
      <Form.Control.Feedback type="invalid">{error}</Form.Control.Feedback>
    </Form.Group>
  );
}
