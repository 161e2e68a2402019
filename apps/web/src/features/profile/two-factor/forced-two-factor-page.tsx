import { useEffect, useState } from 'react';
import { Alert, Button, Card } from 'react-bootstrap';
import { useLocation, useNavigate } from 'react-router';
import { twoFactorUi as t } from '@herald/contract';
import { clearSession, updateSessionUser } from '../../../lib/auth-store';
import { TwoFactorSetup } from './two-factor-setup';

/**
 * What a user held to set up two-factor sign-in (the Admin requires it for the role) sees after
 * login, and nothing else, until it is on: the server answers 403 to every other call
 * meanwhile. The hold ends once the recovery codes are saved: the layout then shows / (the
 * role's dashboard), so the address moves there first.
 */
export function ForcedTwoFactorPage() {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [enabled, setEnabled] = useState(false);

  useEffect(() => {
    if (pathname !== '/') navigate('/', { replace: true });
  }, [pathname, navigate]);

  function logout() {
    clearSession();
    navigate('/login', { replace: true });
  }

  return (
    <main className="min-vh-100 d-flex align-items-center justify-content-center p-3">
      <Card className="shadow-sm w-100" style={{ maxWidth: 480 }}>
        <Card.Body className="p-4">
          <h1 className="h4 mb-3">{t.requiredTitle}</h1>
          {!enabled && <Alert variant="warning">{t.requiredIntro}</Alert>}
          <TwoFactorSetup
            onEnabled={() => setEnabled(true)}
            onDone={() => updateSessionUser({ twoFactorEnabled: true, mustEnrolTwoFactor: false })}
          />
          <div className="text-center mt-3">
            <Button variant="link" className="p-0" onClick={logout}>
              {t.logout}
            </Button>
          </div>
        </Card.Body>
      </Card>
    </main>
  );
}
