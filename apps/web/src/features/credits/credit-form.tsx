import { useRef, useState, type FormEvent } from 'react';
import { Alert, Button, Card, Col, Form, Row, Spinner } from 'react-bootstrap';
import { CREDIT_TRANSACTION_TYPES, CREDIT_TYPES, ui, type SessionUser } from '@herald/contract';
import { errorMessage } from '../../lib/api-client';
import { getSession } from '../../lib/auth-store';
import type { FieldErrors } from '../../components/field-errors';
import { SelectField, TextField } from '../../components/form-field';
import { useCreateCredit } from '../../api/credits/create-credit';
import { availableCredits, useBalances } from '../../api/credits/get-balances';
import { SearchSelect } from '../../components/search-select';
import { useUserSearch } from '../../api/users/get-users';
import {
  checkCreditForm,
  EMPTY_CREDIT_FORM,
  keepsIdempotencyKey,
  loadErrorMessage,
  type CreditFormValues,
} from './credit-form-logic';
import { useFocusFirstInvalid } from '../../components/use-focus-first-invalid';

interface Outcome {
  ok: boolean;
  text: string;
}

/**
 * Add/Remove Credits. Admin mints or removes; a reseller transfers from its own
 * balance, so it also sees that balance. Validated with the server's schema before sending.
 */
export function CreditForm({ me }: { me: SessionUser }) {
  const isReseller = me.role !== 'Admin';
  const [userTerm, setUserTerm] = useState('');
  const users = useUserSearch(userTerm);
  const create = useCreateCredit();
  const [values, setValues] = useState<CreditFormValues>(EMPTY_CREDIT_FORM);
  // One user's balances each (the picked user's, a reseller's own): the scope's first page of
  // balances need not hold either.
  const picked = useBalances({ email: values.to, enabled: !!values.to });
  const own = useBalances({ email: me.email, enabled: isReseller });
  const [errors, setErrors] = useState<FieldErrors>({});
  const focusFirstInvalid = useFocusFirstInvalid();
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  // The Idempotency-Key of the submission in flight or to retry; an edit makes a new request.
  const keyRef = useRef<string | null>(null);

  const set = (patch: Partial<CreditFormValues>) => {
    keyRef.current = null;
    setValues((v) => ({ ...v, ...patch }));
  };

  function submit(e: FormEvent) {
    e.preventDefault();
    const form = e.currentTarget;
    if (create.isPending) return;
    setOutcome(null);
    if (!getSession()?.user.email) {
      setOutcome({ ok: false, text: ui.credits.noCurrentUser });
      return;
    }
    const checked = checkCreditForm(values);
    if (!checked.ok) {
      setErrors(checked.errors);
      focusFirstInvalid(form);
      return;
    }
    setErrors({});
    keyRef.current ??= crypto.randomUUID();
    create.mutate(
      { body: checked.body, idempotencyKey: keyRef.current },
      {
        onSuccess: () => {
          keyRef.current = null;
          setValues((v) => ({ ...v, count: '', rate: '', reason: '' }));
          setOutcome({ ok: true, text: ui.credits.transactionDone });
        },
        onError: (err) => {
          if (!keepsIdempotencyKey(err)) keyRef.current = null;
          setOutcome({ ok: false, text: errorMessage(err, ui.credits.transactionFailed) });
        },
      },
    );
  }

  const userOptions = (users.data ?? []).map((u) => ({
    value: u.email,
    label: `${u.name} (${u.email})`,
  }));
  const loadError = users.error ?? picked.error ?? own.error;
  const shown = (balances: typeof picked, email: string) =>
    balances.isPending ? '…' : String(availableCredits(balances.data, email, values.creditType));

  return (
    <Card className="shadow-sm mb-4">
      <Card.Header as="h2" className="h5 mb-0">
        Add/Remove Credits
      </Card.Header>
      <Card.Body>
        {loadError && <Alert variant="danger">{loadErrorMessage(me.role, loadError)}</Alert>}
        <Form noValidate onSubmit={submit} aria-label="Add/Remove Credits">
          <Row>
            <Col md={6}>
              <SearchSelect
                controlId="credit-user"
                label="User"
                placeholder="Select a user"
                term={userTerm}
                onTermChange={setUserTerm}
                options={userOptions}
                searching={users.searching}
                value={values.to}
                error={errors.to}
                onChange={(to) => set({ to })}
              />
            </Col>
            <Col md={6}>
              <SelectField
                controlId="credit-credit-type"
                label="Credit Type"
                options={CREDIT_TYPES}
                value={values.creditType}
                error={errors.creditType}
                onChange={(creditType) => set({ creditType })}
              />
            </Col>
          </Row>
          <div className="mb-3 small" aria-live="polite">
            {values.to && <div>{`Available credits: ${shown(picked, values.to)}`}</div>}
            {isReseller && <div>{`Your available credits: ${shown(own, me.email)}`}</div>}
          </div>
          <Row>
            <Col md={4}>
              <SelectField
                controlId="credit-type"
                label="Type"
                options={CREDIT_TRANSACTION_TYPES}
                value={values.type}
                error={errors.type}
                onChange={(type) => set({ type })}
              />
            </Col>
            <Col md={4}>
              <NumberField
                controlId="credit-count"
                label="Count"
                step="1"
                value={values.count}
                error={errors.count}
                onChange={(count) => set({ count })}
              />
            </Col>
            <Col md={4}>
              <NumberField
                controlId="credit-rate"
                label="Rate (₹)"
                step="0.01"
                value={values.rate}
                error={errors.rate}
                onChange={(rate) => set({ rate })}
              />
            </Col>
          </Row>
          <TextField
            controlId="credit-reason"
            label="Reason"
            placeholder="Optional"
            value={values.reason}
            error={errors.reason}
            onChange={(reason) => set({ reason })}
          />
          {outcome && <Alert variant={outcome.ok ? 'success' : 'danger'}>{outcome.text}</Alert>}
          <Button type="submit" disabled={create.isPending}>
            {create.isPending && <Spinner size="sm" className="me-2" aria-hidden="true" />}
            Submit
          </Button>
        </Form>
      </Card.Body>
    </Card>
  );
}

interface NumberFieldProps {
  controlId: string;
  label: string;
  step: string;
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
}

/** A required number input; the text is kept as typed and converted when sending. */
function NumberField({ controlId, label, step, value, error, onChange }: NumberFieldProps) {
  return (
    <Form.Group className="mb-3" controlId={controlId}>
      <Form.Label>{label}</Form.Label>
      <Form.Control
        type="number"
        inputMode={step === '1' ? 'numeric' : 'decimal'}
        min="0"
        step={step}
        required
        value={value}
        isInvalid={!!error}
        onChange={(e) => onChange(e.target.value)}
      />
      <Form.Control.Feedback type="invalid">{error}</Form.Control.Feedback>
    </Form.Group>
  );
}
