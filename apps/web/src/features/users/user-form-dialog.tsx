import type { FormEvent, ReactNode } from 'react';
import { Button, Form, Modal, Spinner } from 'react-bootstrap';
import type { FieldErrors } from '../../components/field-errors';
import { NameEmailFields, UserContactFields, type ContactValues } from './user-form-fields';

/** The values both user dialogs edit; each adds its own (password, status, ...). */
export interface UserFormValues extends ContactValues {
  name: string;
  email: string;
}

interface UserFormDialogProps {
  /** 'add-user' or 'edit-user': the ids of the title, the form and its controls. */
  idPrefix: string;
  title: string;
  values: UserFormValues;
  errors: FieldErrors;
  onChange: (patch: Partial<UserFormValues>) => void;
  onSubmit: (e: FormEvent) => void;
  /** Between Email and the contact fields: a Row of the dialog's own account fields. */
  accountFields: ReactNode;
  /** Inside the form, after the contact fields (the whitelabel fields). */
  extraFields?: ReactNode;
  /** In the body, after the form (Admin's Reset Password, a form of its own). */
  afterForm?: ReactNode;
  /** In the footer, so an outcome shows next to the buttons wherever the body is scrolled. */
  notice?: ReactNode;
  /** The secondary button's label ("Cancel" or "Close"); it hides the dialog. */
  hideLabel: string;
  submitLabel: string;
  /** The submit button is disabled with a spinner while the request runs. */
  pending: boolean;
  onHide: () => void;
  /** Replaces the form and its buttons once the dialog is done (Add User's created notice). */
  done?: ReactNode;
}

/** Add User and Edit User: the dialog, name and email, the account fields, contact fields. */
export function UserFormDialog(props: UserFormDialogProps) {
  const { idPrefix, values, errors, onChange, onHide } = props;
  const formId = `${idPrefix}-form`;
  return (
    <Modal show onHide={onHide} size="lg" scrollable aria-labelledby={`${idPrefix}-title`}>
      <Modal.Header closeButton>
        <Modal.Title id={`${idPrefix}-title`} as="h2" className="h5">
          {props.title}
        </Modal.Title>
      </Modal.Header>
      {props.done ?? (
        <>
          <Modal.Body>
            <Form id={formId} noValidate onSubmit={props.onSubmit}>
              <NameEmailFields
                idPrefix={idPrefix}
                values={values}
                errors={errors}
                onChange={onChange}
              />
              {props.accountFields}
              <UserContactFields
                idPrefix={idPrefix}
                values={values}
                errors={errors}
                onChange={onChange}
              />
              {props.extraFields}
            </Form>
            {props.afterForm}
          </Modal.Body>
          <Modal.Footer>
            {props.notice}
            <Button variant="secondary" onClick={onHide}>
              {props.hideLabel}
            </Button>
            <Button type="submit" form={formId} disabled={props.pending}>
              {props.pending && <Spinner size="sm" className="me-2" aria-hidden="true" />}
              {props.submitLabel}
            </Button>
          </Modal.Footer>
        </>
      )}
    </Modal>
  );
}
