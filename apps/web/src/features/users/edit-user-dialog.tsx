import { useState, type FormEvent } from 'react';
import { Alert, Col, Row } from 'react-bootstrap';
import {
  BRANDED_ROLES,
  CREATABLE_ROLES,
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
import { ImageFileField } from '../../components/image-file-field';
import { useUpdateUser } from '../../api/users/update-user';
import { AdminResetPassword } from './admin-reset-password';
import { ResetTwoFactor } from './reset-two-factor';
import { SendPasswordLink } from './send-password-link';
import { UserFormDialog, type UserFormValues } from './user-form-dialog';
import { CONTACT_KEYS, contactValuesOf, RoleField } from './user-form-fields';
import { useFocusFirstInvalid } from '../../components/use-focus-first-invalid';

interface EditUserValues extends UserFormValues {
  role: string;
  status: string;
  ownNumber: string;
  companyName: string;
}

/**
 * The fields this editor may send (docs/product.md, Roles and scope): the server rejects any
 * other.
 */
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

/** Edit User: Admin edits everything; a Reseller/Sub-Reseller contact fields and status. */
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
  const focusFirstInvalid = useFocusFirstInvalid();
  const update = useUpdateUser();
  const set = (patch: Partial<EditUserValues>) => setValues((v) => ({ ...v, ...patch }));
  // Whitelabel fields only for an Admin editing a Reseller or Sub-Reseller.
  const branded = isAdmin && BRANDED_ROLES.includes(values.role as Role);
  const roleOptions = [...CREATABLE_ROLES.Admin].reverse() as string[];
  if (!roleOptions.includes(user.role)) roleOptions.push(user.role);

  function submit(e: FormEvent) {
    e.preventDefault();
    const form = e.currentTarget;
    const keys = editableKeys(isAdmin, branded);
    const fields = Object.fromEntries(keys.map((k) => [k, values[k]]));
    const parsed = UpdateUserBodySchema.safeParse(fields);
    const found = parsed.success ? {} : firstIssues(parsed.error);
    const fileError = branded ? logoError(logo) : undefined;
    if (fileError) found.companyLogo = fileError;
    setErrors(found);
    if (!parsed.success || fileError) {
      focusFirstInvalid(form);
      return;
    }
    const data = new FormData();
    for (const k of keys) data.append(k, values[k]);
    if (branded && logo) data.append('companyLogo', logo);
    else if (branded && removeLogo) data.append('removeLogo', 'true');
    update.mutate({ id: user.id, data });
  }

  return (
    <UserFormDialog
      idPrefix="edit-user"
      title="Edit User"
      values={values}
      errors={errors}
      onChange={set}
      onSubmit={submit}
      accountFields={
        <Row>
          {isAdmin && (
            <Col md={4}>
              <RoleField
                idPrefix="edit-user"
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
      }
      extraFields={
        branded && (
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
        )
      }
      afterForm={
        <>
          <SendPasswordLink user={user} />
          {isAdmin && <AdminResetPassword user={user} />}
          {isAdmin && <ResetTwoFactor user={user} />}
        </>
      }
      notice={
        <>
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
        </>
      }
      hideLabel="Close"
      submitLabel="Save Changes"
      pending={update.isPending}
      onHide={onHide}
    />
  );
}
