import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Button, Card, Form } from 'react-bootstrap';
import {
  USER_SEARCH_DEBOUNCE_MS,
  USERS_SEARCH_MAX,
  ui,
  userStatusVariant,
  type User,
  type UserPage,
} from '@herald/contract';
import { useSession } from '../../lib/auth-store';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { profilePath } from '../../app/paths';
import type { Column } from '../../components/data-table';
import { PagedTable } from '../../components/paged-table';
import { usePagedRows } from '../../components/use-paged-rows';
import { RoleBadge } from '../../components/role-badge';
import { StatusBadge } from '../../components/status-badge';
import { useUsers } from '../../api/users/get-users';
import { AddUserDialog } from './add-user-dialog';
import { EditUserDialog } from './edit-user-dialog';
import { SecuritySettingsCard } from './security-settings-card';

const usersOf = (page: UserPage) => page.users;

/** User Management: the users in the caller's scope; a row opens the profile. */
export function UsersPage() {
  const session = useSession();
  const navigate = useNavigate();
  const [term, setTerm] = useState('');
  const search = useDebouncedValue(term.trim(), USER_SEARCH_DEBOUNCE_MS);
  const users = useUsers({ search });
  const paged = usePagedRows(users, usersOf);
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
      {role === 'Admin' && <SecuritySettingsCard />}
      <Card className="shadow-sm">
        <Card.Body>
          <Form.Group className="mb-3" controlId="users-search" style={{ maxWidth: 360 }}>
            <Form.Label visuallyHidden>Search users</Form.Label>
            <Form.Control
              type="search"
              placeholder="Search by name or email"
              maxLength={USERS_SEARCH_MAX}
              value={term}
              onChange={(e) => setTerm(e.target.value)}
            />
          </Form.Group>
          <PagedTable
            loading={paged.loading || (users.isPlaceholderData && users.isFetching)}
            loadingLabel="Loading users..."
            error={paged.failed ? ui.users.loadFailed : null}
            aria-label="Users"
            columns={columns}
            rows={paged.rows}
            rowKey={(u) => u.id}
            emptyText={search ? ui.users.noMatches : ui.users.empty}
            onRowClick={(u) => navigate(profilePath(u.id))}
            more={paged.more}
            noun="users"
            endText="End of users"
          />
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
