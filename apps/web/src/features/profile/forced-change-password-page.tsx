import { useEffect } from 'react';
import { Alert, Button, Card, Form, Spinner } from 'react-bootstrap';
import { useLocation, useNavigate } from 'react-router';
import { ui } from '@herald/contract';
import { clearSession } from '../../lib/auth-store';
import { ChangePasswordFields, useChangePasswordForm } from './change-password-form';

/**
 * What a user whose password an Admin reset sees after login, and nothing else, until they
 * choose their own: the server answers 403 to every other call meanwhile. Once the
 * change is made the session's hold ends and the layout shows / (the role's dashboard): the
 * screen moves the address there first, since it unmounts the moment the change lands.
 */
export function ForcedChangePasswordPage() {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const form = useChangePasswordForm();

  useEffect(() => {
    if (pathname !== '/') navigate('/', { replace: true });
  }, [pathname, navigate]);

  function logout() {
    clearSession();
    navigate('/login', { replace: true });
  }

  return (
    <main className="min-vh-100 d-flex align-items-center justify-content-center p-3">
      <Card className="shadow-sm w-100" style={{ maxWidth: 440 }}>
        <Card.Body className="p-4">
          <h1 className="h4 mb-3">Change Password</h1>
          <Alert variant="warning">{ui.profile.mustChangePassword}</Alert>
          <Form noValidate onSubmit={(e) => void form.submit(e)}>
            <ChangePasswordFields form={form} idPrefix="forced-change-password" />
            <Button type="submit" className="w-100" disabled={form.pending}>
              {form.pending && <Spinner size="sm" className="me-2" aria-hidden="true" />}
              Change Password
            </Button>
          </Form>
          <div className="text-center mt-3">
            <Button variant="link" className="p-0" onClick={logout}>
              Logout
            </Button>
          </div>
        </Card.Body>
      </Card>
    </main>
  );
}
