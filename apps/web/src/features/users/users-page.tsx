import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Alert, Button, Card } from 'react-bootstrap';
import { ui, userStatusVariant, type User } from '@herald/contract';
import { useSession } from '../../lib/auth-store';
import { profilePath } from '../../app/paths';
import { DataTable, type Column } from '../../components/data-table';
import { LoadingSpinner } from '../../components/loading-spinner';
import { RoleBadge } from '../../components/role-badge';
import { StatusBadge } from '../../components/status-badge';
import { useUsers } from '../../api/users/get-users';
import { AddUserDialog } from './add-user-dialog';
import { EditUserDialog } from './edit-user-dialog';

/** User Management (spec 2.7): the users in the caller's scope; a row opens the profile. */
export function UsersPage() {
  const session = useSession();
  const navigate = useNavigate();
  const users = useUsers();
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<User | null>(null);
  if (!session) return null; // the route guard sends visitors without a session to /login
  const role = session.user.role;

  const columns: Column<User>[] = [
    { header: 'Name', cell: (u) => u.name },
    { header: 'Email', cell: (u) => u.email },
    { header: 'Role', cell: (u) => <RoleBadge role={u.role} /> },
    {
      header: 'Status',
      cell: (u) => <StatusBadge label={u.status} variant={userStatusVariant(u.status)} />,
    },
    { header: 'Created By', cell: (u) => u.createdBy ?? 'Admin' },
    {
      header: 'Actions',
      className: 'text-end',
      cell: (u) => (
        <Button
          size="sm"
          variant="outline-primary"
          onClick={(e) => {
            e.stopPropagation();
            setEditing(u);
          }}
        >
          Edit
        </Button>
      ),
    },
  ];

  return (
    <div>
      <div className="d-flex justify-content-between align-items-center mb-3">
        <h1 className="h3 mb-0">{role === 'Reseller' ? 'My Users' : 'User Management'}</h1>
        <Button onClick={() => setAdding(true)}>Add User</Button>
      </div>
      <Card className="shadow-sm">
        <Card.Body>
          {users.isPending ? (
            <LoadingSpinner label="Loading users..." />
          ) : users.isError ? (
            <Alert variant="danger" className="mb-0">
              {ui.users.loadFailed}
            </Alert>
          ) : (
            <DataTable
              aria-label="Users"
              columns={columns}
              rows={users.data}
              rowKey={(u) => u.id}
              emptyText={ui.users.empty}
              onRowClick={(u) => navigate(profilePath(u.id))}
            />
          )}
        </Card.Body>
      </Card>
      {adding && <AddUserDialog creatorRole={role} onHide={() => setAdding(false)} />}
      {editing && (
        <EditUserDialog
          key={editing.id}
          user={editing}
          editorRole={role}
          onHide={() => setEditing(null)}
        />
      )}
    </div>
  );
}
