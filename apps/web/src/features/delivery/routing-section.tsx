import { useState, type FormEvent } from 'react';
import { Alert, Button, Card, Col, Form, Row, Spinner } from 'react-bootstrap';
import { CREDIT_TYPES, ui, type CreditRoute, type CreditType, type Sender } from '@herald/contract';
import { useFocusFirstInvalid } from '../../components/use-focus-first-invalid';
import { errorMessage } from '../../lib/api-client';
import { useUpdateRoutes } from '../../api/delivery/update-routes';
import { parseRoutes, routeOptions, routeValues, type RouteValues } from './routing-form';

const t = ui.providers;

interface RoutingSectionProps {
  routes: readonly CreditRoute[];
  senders: readonly Sender[];
  onNotice: (text: string) => void;
}

/**
 * Which sender each credit type goes through. A sender whose kind cannot carry a type (an SMS
 * gateway for a type with pictures or buttons) is listed but cannot be chosen.
 */
export function RoutingSection({ routes, senders, onNotice }: RoutingSectionProps) {
  const [values, setValues] = useState<RouteValues>(() => routeValues(routes));
  const [errors, setErrors] = useState<Partial<Record<CreditType, string>>>({});
  const focusFirstInvalid = useFocusFirstInvalid();
  const save = useUpdateRoutes();

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    save.reset();
    const parsed = parseRoutes(values, senders);
    if (parsed.errors) {
      setErrors(parsed.errors);
      focusFirstInvalid(form);
      return;
    }
    setErrors({});
    save.mutate(parsed.body, {
      onSuccess: (saved) => {
        setValues(routeValues(saved));
        onNotice(t.routesSaved);
      },
    });
  };

  return (
    <Card className="shadow-sm">
      <Card.Body>
        <h2 className="h5">{t.routingTitle}</h2>
        <p className="text-muted small">{t.routingIntro}</p>
        {save.isError && (
          <Alert variant="danger">{errorMessage(save.error, t.routesSaveFailed)}</Alert>
        )}
        <Form noValidate onSubmit={submit}>
          <Row className="g-3 mb-3">
            {CREDIT_TYPES.map((type, i) => {
              const id = `route-${i}`;
              const error = errors[type];
              return (
                <Col key={type} md={6} xl={4}>
                  <Form.Group controlId={id}>
                    <Form.Label>{type}</Form.Label>
                    <Form.Select
                      value={values[type]}
                      isInvalid={!!error}
                      aria-invalid={error ? true : undefined}
                      aria-describedby={error ? `${id}-error` : undefined}
                      onChange={(e) => setValues((v) => ({ ...v, [type]: e.target.value }))}
                    >
                      {routeOptions(type, senders).map((o) => (
                        <option key={o.value} value={o.value} disabled={o.disabled}>
                          {o.label}
                        </option>
                      ))}
                    </Form.Select>
                    <Form.Control.Feedback id={`${id}-error`} type="invalid">
                      {error}
                    </Form.Control.Feedback>
                  </Form.Group>
                </Col>
              );
            })}
          </Row>
          <Button type="submit" disabled={save.isPending}>
            {save.isPending && <Spinner size="sm" className="me-1" aria-hidden="true" />}
            {t.routesSave}
          </Button>
        </Form>
      </Card.Body>
    </Card>
  );
}
