import { useState, type FormEvent } from 'react';
import { Alert, Button, Col, Form, Modal, Row, Spinner } from 'react-bootstrap';
import {
  CREATABLE_ROLES,
  CreateUserBodySchema,
  DEFAULT_PASSWORD_HINT,
  loadCommonPasswords,
  ui,
  type CreateUserReply,
  type Role,
} from '@herald/contract';
import { errorMessage } from '../../lib/api-client';
import { firstIssues, type FieldErrors } from '../../components/field-errors';
import { SelectField, TextField } from '../../components/form-field';
import { useCreateUser } from '../../api/users/create-user';
import {
  EMPTY_CONTACT,
  NameEmailFields,
  UserContactFields,
  type ContactValues,
} from './user-form-fields';

interface AddUserValues extends ContactValues {
  name: string;
  email: string;
  password: string;
  role: string;
}

/** Lowest role first, so the usual choice (User) is the default. */
function roleChoices(creator: Role): Role[] {
  return [...CREATABLE_ROLES[creator]].reverse();
}

/** Add User (spec 5): validated with the server's schema; the reply may carry a new password. */
export function AddUserDialog({ creatorRole, onHide }: { creatorRole: Role; onHide: () => void }) {
  const roles = roleChoices(creatorRole);
  const [values, setValues] = useState<AddUserValues>({
    name: '',
    email: '',
    password: '',
    role: roles[0] ?? '',
    ...EMPTY_CONTACT,
  });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [created, setCreated] = useState<CreateUserReply | null>(null);
  const create = useCreateUser();
  const set = (patch: Partial<AddUserValues>) => setValues((v) => ({ ...v, ...patch }));

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (values.password) await loadCommonPasswords().catch(() => undefined); // common-password rule
    const parsed = CreateUserBodySchema.safeParse(values);
    if (!parsed.success) {
      setErrors(firstIssues(parsed.error));
      return;
    }
    setErrors({});
    create.mutate(parsed.data, { onSuccess: setCreated });
  }

  return (
    <Modal show onHide={onHide} size="lg" scrollable aria-labelledby="add-user-title">
      <Modal.Header closeButton>
        <Modal.Title id="add-user-title" as="h2" className="h5">
          Add User
        </Modal.Title>
      </Modal.Header>
      {created ? (
        <CreatedNotice reply={created} onHide={onHide} />
      ) : (
        <>
          <Modal.Body>
            <Form id="add-user-form" noValidate onSubmit={(e) => void submit(e)}>
              <NameEmailFields idPrefix="add-user" values={values} errors={errors} onChange={set} />
              <Row>
                <Col md={6}>
                  <TextField
                    controlId="add-user-password"
                    label="Password"
                    type="password"
                    autoComplete="new-password"
                    placeholder={DEFAULT_PASSWORD_HINT}
                    hint={DEFAULT_PASSWORD_HINT}
                    value={values.password}
                    error={errors.password}
                    onChange={(password) => set({ password })}
                  />
                </Col>
                <Col md={6}>
                  <SelectField
                    controlId="add-user-role"
                    label="Role"
                    options={roles}
                    value={values.role}
                    error={errors.role}
                    onChange={(role) => set({ role })}
                  />
                </Col>
              </Row>
              <UserContactFields
                idPrefix="add-user"
                values={values}
                errors={errors}
                onChange={set}
              />
            </Form>
          </Modal.Body>
          <Modal.Footer>
            {create.isError && (
              <Alert variant="danger" className="w-100 mb-2">
                {errorMessage(create.error, ui.users.createFailed)}
              </Alert>
            )}
            <Button variant="secondary" onClick={onHide}>
              Cancel
            </Button>
            <Button type="submit" form="add-user-form" disabled={create.isPending}>
              {create.isPending && <Spinner size="sm" className="me-2" aria-hidden="true" />}
              Add User
            </Button>
          </Modal.Footer>
        </>
      )}
    </Modal>
  );
}

/** Stays until the dialog closes: a generated password is shown only this once. */
function CreatedNotice({ reply, onHide }: { reply: CreateUserReply; onHide: () => void }) {
  return (
    <>
      <Modal.Body>
        <Alert variant="success">{reply.message || ui.users.created}</Alert>
        {reply.generatedPassword && (
          <Form.Group controlId="add-user-generated-password">
            <Form.Label>Generated password</Form.Label>
            <Form.Control
              readOnly
              value={reply.generatedPassword}
              className="font-monospace"
              onFocus={(e) => e.currentTarget.select()}
            />
            <Form.Text muted>Copy it now: it is not shown again.</Form.Text>
          </Form.Group>
        )}
      </Modal.Body>
      <Modal.Footer>
        <Button onClick={onHide}>Close</Button>
      </Modal.Footer>
    </>
  );
}
