import { sql, type SqlBool } from 'kysely';
import {
  ACTIVE_CAMPAIGN_STATUSES,
  AWAITING_APPROVAL_STATUSES,
  SENT_CAMPAIGN_STATUSES,
} from '@herald/contract';
import type { DbOrTx } from '../../db/database.js';
import type { Actor } from '../../policies/scope.js';

/**
 * Campaigns whose owner is in the actor's scope (docs/product.md, Roles and scope; as the
 * campaigns list): Admin all, a Reseller/Sub-Reseller its own and its subtree's, a User its own.
 */
function campaignsInScope(db: DbOrTx, actor: Actor) {
  const q = db.selectFrom('campaigns').innerJoin('users', 'users.id', 'campaigns.user_id');
  if (actor.role === 'Admin') return q;
  if (actor.role === 'User') return q.where('campaigns.user_id', '=', actor.id);
  return q.where((eb) =>
    eb.or([
      eb('users.id', '=', actor.id),
      sql<SqlBool>`users.ancestors @> ARRAY[${actor.id}]::uuid[]`,
    ]),
  );
}

/** 'Active Campaigns' / 'My Active Campaigns': Submitted through Processing, in scope. */
export async function countActiveCampaigns(db: DbOrTx, actor: Actor): Promise<number> {
  const row = await campaignsInScope(db, actor)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('campaigns.status', 'in', [...ACTIVE_CAMPAIGN_STATUSES])
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * A User's 'Campaigns Sent' (its campaigns that went out) and 'Avg. Success Rate': the mean,
 * over its campaigns with a delivery report, of delivered / reported as a percentage (null
 * while no campaign has a report).
 */
export async function userCampaignFigures(
  db: DbOrTx,
  userId: string,
): Promise<{ sent: number; avgSuccessRate: number | null }> {
  const row = await db
    .selectFrom('campaigns')
    .where('user_id', '=', userId)
    .select([
      sql<string>`count(*) FILTER (WHERE status IN (${sql.join([...SENT_CAMPAIGN_STATUSES])}))`.as(
        'sent',
      ),
      sql<
        number | null
      >`avg(100.0 * report_delivered / report_count) FILTER (WHERE report_count > 0)`.as('rate'),
    ])
    .executeTakeFirstOrThrow();
  return {
    sent: Number(row.sent),
    avgSuccessRate: row.rate === null ? null : Math.round(Number(row.rate) * 10) / 10,
  };
}

/** The Admin's 'Awaiting Approval': every campaign Submitted or Pending Approval. */
export async function countAwaitingApproval(db: DbOrTx): Promise<number> {
  const row = await db
    .selectFrom('campaigns')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('status', 'in', [...AWAITING_APPROVAL_STATUSES])
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
