import { sql, type ExpressionBuilder, type Expression, type SqlBool } from 'kysely';
import type { Role } from '@herald/contract';
import type { Database } from '../db/schema.js';

/**
 * Scope policy (docs/product.md, Roles and scope), written once: Admin sees everyone; a Reseller or
 * Sub-Reseller sees itself and its subtree; a User sees itself. Out of scope answers 404.
 */
export interface Actor {
  id: string;
  role: Role;
}

export interface ScopedUser {
  id: string;
  ancestors: readonly string[];
}

export function canSee(actor: Actor, target: ScopedUser): boolean {
  if (actor.role === 'Admin') return true;
  if (target.id === actor.id) return true;
  if (actor.role === 'User') return false;
  return target.ancestors.includes(actor.id);
}

/** True when `target` is strictly below `actor` (Admin: every user but itself). */
export function isBelow(actor: Actor, target: ScopedUser): boolean {
  if (target.id === actor.id) return false;
  return actor.role === 'Admin' || target.ancestors.includes(actor.id);
}

/** WHERE clause on `users` for the users the actor may see (uses the GIN index on ancestors). */
export function usersInScope(actor: Actor) {
  return (eb: ExpressionBuilder<Database, 'users'>): Expression<SqlBool> => {
    if (actor.role === 'Admin') return sql<SqlBool>`true`;
    if (actor.role === 'User') return eb('users.id', '=', actor.id);
    return eb.or([
      eb('users.id', '=', actor.id),
      sql<SqlBool>`users.ancestors @> ARRAY[${actor.id}]::uuid[]`,
    ]);
  };
}
