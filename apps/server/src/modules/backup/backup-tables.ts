/**
 * What a backup holds: an allow-list of tables and, per table, the columns written
 * (docs/product.md, Backup and storage). A table or column not named here is never exported, so a new one
 * (a secret, a hash) stays out until someone adds it on purpose. Left out on purpose: password
 * hashes and token versions (users), one-time codes (password_resets), rate-limit counters,
 * idempotency keys (stored replies), the mail outbox (its bodies carry reset codes), API keys
 * (their hashes find a live key, and a restore from this export could not make them work again:
 * docs/api.md, Backups), the owner-only `herald_private` schema and the job queue.
 */

/** How a column's value is written: text as it is, `int` as a number, `date` as a date cell. */
export type BackupColumnKind = 'text' | 'int' | 'date';

export interface BackupTable {
  /** Table name; also the sheet's name. */
  name: string;
  columns: readonly (readonly [column: string, kind: BackupColumnKind])[];
}

const t = (name: string) => [name, 'text'] as const;
const i = (name: string) => [name, 'int'] as const;
const d = (name: string) => [name, 'date'] as const;

export const BACKUP_TABLES: readonly BackupTable[] = [
  {
    name: 'users',
    columns: [
      t('id'),
      t('email'),
      t('name'),
      t('role'),
      t('status'),
      t('created_by'),
      d('created_at'),
      d('updated_at'),
      t('own_number'),
      t('company_name'),
      t('company_logo'),
      i('quiet_start'),
      i('quiet_end'),
      t('contact_person'),
      t('contact_person_phone'),
      t('mobile'),
      t('firm_name'),
      t('address'),
      t('city'),
      t('state'),
      t('pincode'),
    ],
  },
  {
    name: 'credit_balances',
    columns: [t('user_id'), t('credit_type'), i('balance'), i('total_added'), i('total_removed')],
  },
  {
    name: 'credit_transactions',
    columns: [
      i('id'),
      t('group_id'),
      t('to_user_id'),
      t('to_email'),
      t('to_name'),
      t('by_user_id'),
      t('by_email'),
      t('by_name'),
      t('type'),
      t('credit_type'),
      i('count'),
      i('rate_paise'),
      i('total_paise'),
      t('reason'),
      t('kind'),
      t('campaign_id'),
      d('created_at'),
    ],
  },
  {
    // The providers, without their secrets, callback tokens or the secrets' last characters:
    // a backup never carries a credential (docs/delivery.md, Providers in the database).
    name: 'providers',
    columns: [
      t('id'),
      t('name'),
      t('kind'),
      t('builtin'),
      t('enabled'),
      d('created_at'),
      d('updated_at'),
    ],
  },
  {
    // The delivery engine's senders (bucket and throttle state, and sender_daily_usage's
    // counters, are running state, not data: left out; so are the counter shards in
    // campaign_delivery_counts, folded into the campaign's own counters when it is settled).
    name: 'senders',
    columns: [
      t('id'),
      t('name'),
      t('provider_id'),
      t('address'),
      i('rate_per_second'),
      i('daily_limit'),
      t('is_default'),
      d('created_at'),
      d('updated_at'),
    ],
  },
  {
    name: 'sender_templates',
    columns: [
      t('id'),
      t('sender_id'),
      t('name'),
      t('language'),
      t('body'),
      i('variables'),
      d('created_at'),
    ],
  },
  {
    name: 'campaigns',
    columns: [
      t('id'),
      t('user_id'),
      t('created_by'),
      t('credit_type'),
      t('name'),
      t('message'),
      t('country_name'),
      t('country_code'),
      t('cta_call'),
      t('cta_call_text'),
      t('cta_url'),
      t('cta_url_text'),
      t('status'),
      i('recipient_count'),
      t('charged'),
      i('charged_count'),
      i('report_count'),
      i('report_delivered'),
      d('created_at'),
      t('sender_id'),
      t('simulated'),
      t('test'),
      t('dispatch_state'),
      t('dispatch_cursor'),
      d('dispatch_resume_at'),
      d('dispatch_heartbeat_at'),
      i('sent_count'),
      i('delivered_count'),
      i('read_count'),
      i('failed_count'),
      i('delivery_refunded'),
      t('delivery_settled'),
      t('rejection_reason'),
      t('template'),
      d('send_at'),
      i('quiet_start'),
      i('quiet_end'),
    ],
  },
  {
    name: 'campaign_recipients',
    columns: [
      t('campaign_id'),
      t('phone'),
      t('state'),
      i('attempts'),
      t('provider_message_id'),
      t('error_code'),
      t('error_text'),
      d('next_attempt_at'),
      d('state_at'),
      d('sent_at'),
      d('delivered_at'),
      d('read_at'),
      d('failed_at'),
      i('zone'),
    ],
  },
  {
    name: 'campaign_files',
    columns: [
      t('id'),
      t('campaign_id'),
      t('kind'),
      t('stored_name'),
      t('original_name'),
      t('mime'),
      i('size'),
      i('position'),
    ],
  },
  { name: 'campaign_report_entries', columns: [t('campaign_id'), t('phone'), t('status')] },
  {
    name: 'notifications',
    columns: [
      t('id'),
      t('user_id'),
      t('event_type'),
      t('message'),
      t('link'),
      d('created_at'),
      d('read_at'),
    ],
  },
  {
    name: 'tickets',
    columns: [
      t('id'),
      i('number'),
      t('user_id'),
      t('subject'),
      t('description'),
      t('issue_type'),
      t('status'),
      t('assigned_to'),
      t('related_campaign'),
      t('related_user'),
      t('related_transaction'),
      d('created_at'),
      d('updated_at'),
    ],
  },
  {
    name: 'ticket_replies',
    columns: [
      t('id'),
      t('ticket_id'),
      t('user_id'),
      t('user_email'),
      t('user_name'),
      t('message'),
      d('created_at'),
    ],
  },
  {
    name: 'ticket_attachments',
    columns: [
      t('id'),
      t('ticket_id'),
      t('stored_name'),
      t('original_name'),
      t('mime'),
      i('size'),
      i('position'),
    ],
  },
  {
    name: 'announcements',
    columns: [
      t('id'),
      t('title'),
      t('message'),
      t('link'),
      t('image'),
      d('expiry_date'),
      t('visibility_type'),
      t('created_by'),
      d('created_at'),
    ],
  },
  { name: 'announcement_targets', columns: [t('announcement_id'), t('user_id')] },
  { name: 'announcement_seen', columns: [t('announcement_id'), t('user_id'), d('seen_at')] },
  {
    name: 'suppressions',
    columns: [t('id'), t('owner_id'), t('phone'), t('source'), d('created_at')],
  },
];
