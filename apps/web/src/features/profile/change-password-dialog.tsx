import { Button, Form, Modal, Spinner } from 'react-bootstrap';
import { ChangePasswordFields, useChangePasswordForm } from './change-password-form';

/** Change Password: all three required, new and confirm must match. */
export function ChangePasswordDialog({ onHide }: { onHide: () => void }) {
  const form = useChangePasswordForm();

  return (
    <Modal show onHide={onHide} aria-labelledby="change-password-title">
      <Modal.Header closeButton>
        <Modal.Title id="change-password-title" as="h2" className="h5">
          Change Password
        </Modal.Title>
      </Modal.Header>
      <Form noValidate onSubmit={(e) => void form.submit(e)}>
        <Modal.Body>
          <ChangePasswordFields form={form} idPrefix="change-password" />
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={onHide}>
            Close
          </Button>
          <Button type="submit" disabled={form.pending}>
            {form.pending && <Spinner size="sm" className="me-2" aria-hidden="true" />}
            Change Password
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}
