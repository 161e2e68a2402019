import type { HTMLAttributes, HTMLInputTypeAttribute } from 'react';
import { Form } from 'react-bootstrap';

interface FieldProps {
  controlId: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
  hint?: string | undefined;
  className?: string;
  disabled?: boolean;
}

interface TextFieldProps extends FieldProps {
  type?: HTMLInputTypeAttribute;
  placeholder?: string;
  autoComplete?: string;
  /** The phone keyboard to offer, e.g. `numeric` for a count typed as text. */
  inputMode?: HTMLAttributes<HTMLInputElement>['inputMode'];
  /** Renders a textarea with this many rows. */
  rows?: number;
  /** Bounds of a date, time or number input. */
  min?: string;
  max?: string;
}

/**
 * The ids of a field's hint and error, for aria-describedby: the error is read out with the
 * field, and aria-invalid marks it (WCAG 3.3.1, 1.3.1; docs/product.md, Accessibility).
 */
function described(controlId: string, hint: string | undefined, error: string | undefined) {
  const ids = [hint && `${controlId}-hint`, error && `${controlId}-error`].filter(Boolean);
  return {
    'aria-invalid': error ? true : undefined,
    'aria-describedby': ids.length > 0 ? ids.join(' ') : undefined,
  };
}

/** A field's hint and its error message, with the ids `described` names. */
function HintAndError({
  controlId,
  hint,
  error,
}: {
  controlId: string;
  hint: string | undefined;
  error: string | undefined;
}) {
  return (
    <>
      {hint && (
        <Form.Text id={`${controlId}-hint`} muted>
          {hint}
        </Form.Text>
      )}
      <Form.Control.Feedback id={`${controlId}-error`} type="invalid">
        {error}
      </Form.Control.Feedback>
    </>
  );
}

/** A labelled input whose label is tied to the control (controlId) and shows one error. */
export function TextField(props: TextFieldProps) {
  const { controlId, label, value, onChange, error, hint, type = 'text', rows } = props;
  return (
    <Form.Group className={props.className ?? 'mb-3'} controlId={controlId}>
      <Form.Label>{label}</Form.Label>
      <Form.Control
        type={rows ? undefined : type}
        as={rows ? 'textarea' : undefined}
        rows={rows}
        value={value}
        placeholder={props.placeholder}
        autoComplete={props.autoComplete}
        inputMode={props.inputMode}
        min={props.min}
        max={props.max}
        disabled={props.disabled}
        isInvalid={!!error}
        {...described(controlId, hint, error)}
        onChange={(e) => onChange(e.target.value)}
      />
      <HintAndError controlId={controlId} hint={hint} error={error} />
    </Form.Group>
  );
}

export interface SelectOption {
  value: string;
  label: string;
}

export interface SelectFieldProps extends FieldProps {
  options: readonly (string | SelectOption)[];
  /** Label of the empty first option; omitted means no empty option. */
  placeholder?: string;
}

/** A labelled select; plain strings are both value and label. */
export function SelectField(props: SelectFieldProps) {
  const { controlId, label, value, onChange, error, hint, options, placeholder } = props;
  return (
    <Form.Group className={props.className ?? 'mb-3'} controlId={controlId}>
      <Form.Label>{label}</Form.Label>
      <Form.Select
        value={value}
        disabled={props.disabled}
        isInvalid={!!error}
        {...described(controlId, hint, error)}
        onChange={(e) => onChange(e.target.value)}
      >
        {placeholder !== undefined && <option value="">{placeholder}</option>}
        {options.map((o) => {
          const opt = typeof o === 'string' ? { value: o, label: o } : o;
          return (
            <option key={opt.value} value={opt.value}>
              {opt.label}
            </option>
          );
        })}
      </Form.Select>
      <HintAndError controlId={controlId} hint={hint} error={error} />
    </Form.Group>
  );
}
