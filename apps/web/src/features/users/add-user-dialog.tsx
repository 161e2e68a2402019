import { useState, type FormEvent } from 'react';
import { Alert, Button, Col, Form, Modal, Row } from 'react-bootstrap';
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
import { useFocusFirstInvalid } from '../../components/use-focus-first-invalid';
import { TextField } from '../../components/form-field';
import { useCreateUser } from '../../api/users/create-user';
import { UserFormDialog, type UserFormValues } from './user-form-dialog';
import { EMPTY_CONTACT, RoleField } from './user-form-fields';

interface AddUserValues extends UserFormValues {
  password: string;
  role: string;
}

/** Lowest role first, so the usual choice (User) is the default. */
function roleChoices(creator: Role): Role[] {
  return [...CREATABLE_ROLES[creator]].reverse();
}

/** Add User: validated with the server's schema; the reply may carry a new password. */
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
  const focusFirstInvalid = useFocusFirstInvalid();
  const set = (patch: Partial<AddUserValues>) => setValues((v) => ({ ...v, ...patch }));

  async function submit(e: FormEvent) {
    e.preventDefault();
    const form = e.currentTarget;
    if (values.password) await loadCommonPasswords().catch(() => undefined); // common-password rule
    const parsed = CreateUserBodySchema.safeParse(values);
    if (!parsed.success) {
      setErrors(firstIssues(parsed.error));
      focusFirstInvalid(form);
      return;
    }
    setErrors({});
    create.mutate(parsed.data, { onSuccess: setCreated });
  }

  return (
    <UserFormDialog
      idPrefix="add-user"
      title="Add User"
      values={values}
      errors={errors}
      onChange={set}
      onSubmit={(e) => void submit(e)}
      accountFields={
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
            <RoleField
              idPrefix="add-user"
              options={roles}
              value={values.role}
              error={errors.role}
              onChange={(role) => set({ role })}
            />
          </Col>
        </Row>
      }
      notice={
        create.isError && (
          <Alert variant="danger" className="w-100 mb-2">
            {errorMessage(create.error, ui.users.createFailed)}
          </Alert>
        )
      }
      hideLabel="Cancel"
      submitLabel="Add User"
      pending={create.isPending}
      onHide={onHide}
      done={created && <CreatedNotice reply={created} onHide={onHide} />}
    />
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
