import { useState, type FormEvent } from 'react';
import { Alert, Button, Col, Form, Modal, Row, Spinner } from 'react-bootstrap';
import {
  AdminResetPasswordBodySchema,
  BRANDED_ROLES,
  CREATABLE_ROLES,
  loadCommonPasswords,
  LOGO_MIME_TYPES,
  MAX_LOGO_BYTES,
  server,
  ui,
  UpdateUserBodySchema,
  USER_STATUSES,
  type Role,
  type User,
} from '@herald/contract';
import { errorMessage } from '../../lib/api-client';
import { firstIssues, type FieldErrors } from '../../components/field-errors';
import { SelectField, TextField } from '../../components/form-field';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { ImageFileField } from '../../components/image-file-field';
import { useUpdateUser } from '../../api/users/update-user';
import { useAdminResetPassword } from '../../api/users/admin-reset-password';
import {
  CONTACT_KEYS,
  contactValuesOf,
  NameEmailFields,
  UserContactFields,
  type ContactValues,
} from './user-form-fields';

interface EditUserValues extends ContactValues {
  name: string;
  email: string;
  role: string;
  status: string;
  ownNumber: string;
  companyName: string;
}

/** The fields this editor may send (decisions 2): the server rejects any other. */
function editableKeys(isAdmin: boolean, branded: boolean): (keyof EditUserValues)[] {
  const keys: (keyof EditUserValues)[] = ['name', 'email', 'status', ...CONTACT_KEYS];
  if (isAdmin) keys.push('role', 'ownNumber');
  if (isAdmin && branded) keys.push('companyName');
  return keys;
}

function logoError(file: File | null): string | undefined {
  if (!file) return undefined;
  if (!(LOGO_MIME_TYPES as readonly string[]).includes(file.type)) return server.logoType;
  return file.size > MAX_LOGO_BYTES ? server.logoTooLarge : undefined;
}

interface EditUserDialogProps {
  user: User;
  editorRole: Role;
  onHide: () => void;
}

/** Edit User (spec 5): Admin edits everything; a Reseller/Sub-Reseller contact fields and status. */
export function EditUserDialog({ user, editorRole, onHide }: EditUserDialogProps) {
  const isAdmin = editorRole === 'Admin';
  const [values, setValues] = useState<EditUserValues>({
    name: user.name,
    email: user.email,
    role: user.role,
    status: user.status,
    ownNumber: user.ownNumber ?? '',
    companyName: user.companyName ?? '',
    ...contactValuesOf(user),
  });
  const [logo, setLogo] = useState<File | null>(null);
  const [removeLogo, setRemoveLogo] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const update = useUpdateUser();
  const set = (patch: Partial<EditUserValues>) => setValues((v) => ({ ...v, ...patch }));
  // Whitelabel fields only for an Admin editing a Reseller or Sub-Reseller (spec 5).
  const branded = isAdmin && BRANDED_ROLES.includes(values.role as Role);
  const roleOptions = [...CREATABLE_ROLES.Admin].reverse() as string[];
  if (!roleOptions.includes(user.role)) roleOptions.push(user.role);

  function submit(e: FormEvent) {
    e.preventDefault();
    const keys = editableKeys(isAdmin, branded);
    const fields = Object.fromEntries(keys.map((k) => [k, values[k]]));
    const parsed = UpdateUserBodySchema.safeParse(fields);
    const found = parsed.success ? {} : firstIssues(parsed.error);
    const fileError = branded ? logoError(logo) : undefined;
    if (fileError) found.companyLogo = fileError;
    setErrors(found);
    if (!parsed.success || fileError) return;
    const data = new FormData();
    for (const k of keys) data.append(k, values[k]);
    if (branded && logo) data.append('companyLogo', logo);
    else if (branded && removeLogo) data.append('removeLogo', 'true');
    update.mutate({ id: user.id, data });
  }

  return (
    <Modal show onHide={onHide} size="lg" scrollable aria-labelledby="edit-user-title">
      <Modal.Header closeButton>
        <Modal.Title id="edit-user-title" as="h2" className="h5">
          Edit User
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <Form id="edit-user-form" noValidate onSubmit={submit}>
          <NameEmailFields idPrefix="edit-user" values={values} errors={errors} onChange={set} />
          <Row>
            {isAdmin && (
              <Col md={4}>
                <SelectField
                  controlId="edit-user-role"
                  label="Role"
                  options={roleOptions}
                  value={values.role}
                  error={errors.role}
                  onChange={(role) => set({ role })}
                />
              </Col>
            )}
            <Col md={4}>
              <SelectField
                controlId="edit-user-status"
                label="Status"
                options={USER_STATUSES}
                value={values.status}
                error={errors.status}
                onChange={(status) => set({ status })}
              />
            </Col>
            {isAdmin && (
              <Col md={4}>
                <TextField
                  controlId="edit-user-own-number"
                  label="Own Number"
                  type="tel"
                  value={values.ownNumber}
                  error={errors.ownNumber}
                  onChange={(ownNumber) => set({ ownNumber })}
                />
              </Col>
            )}
          </Row>
          <UserContactFields idPrefix="edit-user" values={values} errors={errors} onChange={set} />
          {branded && (
            <fieldset className="border rounded p-3 mb-3">
              <legend className="h6 float-none w-auto px-1 mb-0">Whitelabel</legend>
              <TextField
                controlId="edit-user-company-name"
                label="Company Name"
                value={values.companyName}
                error={errors.companyName}
                onChange={(companyName) => set({ companyName })}
              />
              <ImageFileField
                controlId="edit-user-logo"
                label="Logo"
                accept={LOGO_MIME_TYPES}
                currentUrl={user.companyLogo}
                file={logo}
                onFileChange={setLogo}
                removed={removeLogo}
                onRemovedChange={setRemoveLogo}
                error={errors.companyLogo}
                hint="PNG or JPEG; 200x50 pixels, transparent PNG recommended."
              />
            </fieldset>
          )}
        </Form>
        {isAdmin && <AdminResetPassword user={user} />}
      </Modal.Body>
      <Modal.Footer>
        {/* In the footer, so the outcome shows next to the button wherever the body is scrolled. */}
        {update.isSuccess && (
          <Alert variant="success" className="w-100 mb-2">
            {ui.users.updated}
          </Alert>
        )}
        {update.isError && (
          <Alert variant="danger" className="w-100 mb-2">
            {errorMessage(update.error, ui.users.updateFailed)}
          </Alert>
        )}
        <Button variant="secondary" onClick={onHide}>
          Close
        </Button>
        <Button type="submit" form="edit-user-form" disabled={update.isPending}>
          {update.isPending && <Spinner size="sm" className="me-2" aria-hidden="true" />}
          Save Changes
        </Button>
      </Modal.Footer>
    </Modal>
  );
}

type Notice = { variant: 'success' | 'danger'; text: string };

/** Admin-only: set a new password for the user after a confirmation (spec 2.7, 5). */
function AdminResetPassword({ user }: { user: User }) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string>();
  const [confirming, setConfirming] = useState(false);
  const [notice, setNotice] = useState<Notice | null>(null);
  const reset = useAdminResetPassword();

  async function ask(e: FormEvent) {
    e.preventDefault();
    setNotice(null);
    if (password) await loadCommonPasswords().catch(() => undefined); // common-password rule
    const parsed = AdminResetPasswordBodySchema.safeParse({ newPassword: password });
    if (!parsed.success) {
      // Empty gets the spec's wording; otherwise the password policy's message.
      setError(password ? firstIssues(parsed.error).newPassword : ui.users.enterNewPassword);
      return;
    }
    setError(undefined);
    setConfirming(true);
  }

  function confirm() {
    reset.mutate(
      { id: user.id, newPassword: password },
      {
        onSuccess: () => {
          setPassword('');
          setNotice({ variant: 'success', text: ui.users.resetDone });
        },
        onError: (err) =>
          setNotice({ variant: 'danger', text: errorMessage(err, ui.users.resetFailed) }),
        onSettled: () => setConfirming(false),
      },
    );
  }

  return (
    <section className="border-top pt-3 mt-2" aria-labelledby="reset-password-title">
      <h3 id="reset-password-title" className="h6">
        Reset Password
      </h3>
      {notice && <Alert variant={notice.variant}>{notice.text}</Alert>}
      <Form noValidate onSubmit={(e) => void ask(e)} className="d-flex gap-2 align-items-start">
        <TextField
          className="flex-grow-1"
          controlId="edit-user-new-password"
          label="New Password"
          type="password"
          autoComplete="new-password"
          value={password}
          error={error}
          onChange={setPassword}
        />
        <Button type="submit" variant="warning" className="mt-4 text-nowrap">
          Reset Password
        </Button>
      </Form>
      {/* Unmounted at once, so Escape right after confirming reaches the edit dialog. */}
      {confirming && (
        <ConfirmDialog
          show
          title="Reset Password"
          variant="warning"
          busy={reset.isPending}
          onConfirm={confirm}
          onCancel={() => setConfirming(false)}
        >
          {ui.users.confirmReset(user.email)}
        </ConfirmDialog>
      )}
    </section>
  );
}
