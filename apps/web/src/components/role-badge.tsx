import { Badge } from 'react-bootstrap';
import type { Role } from '@herald/contract';

const ROLE_VARIANTS: Record<Role, string> = {
  Admin: 'dark',
  Reseller: 'primary',
  'Sub-Reseller': 'info',
  User: 'secondary',
};

export function RoleBadge({ role }: { role: Role }) {
  const variant = ROLE_VARIANTS[role];
  return (
    <Badge bg={variant} text={variant === 'info' ? 'dark' : undefined}>
      {role}
    </Badge>
  );
}
