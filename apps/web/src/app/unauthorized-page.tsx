import { Link } from 'react-router';
import { UNAUTHORIZED_ACCESS } from '@herald/contract';

export function UnauthorizedPage() {
  return (
    <main className="container py-5 text-center">
      <h1 className="h3 text-danger">{UNAUTHORIZED_ACCESS}</h1>
      <p className="text-muted">You do not have permission to open this page.</p>
      <Link to="/" className="btn btn-primary">
        Go to my dashboard
      </Link>
    </main>
  );
}
