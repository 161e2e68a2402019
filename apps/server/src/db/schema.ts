import type {
  ColumnType,
  Generated,
  GeneratedAlways,
  Insertable,
  Selectable,
  Updateable,
} from 'kysely';
import type {
  AnnouncementVisibilityType,
  ApiKeyKind,
  AuditChanges,
  WebhookDisabledReason,
  WebhookEventType,
  BackupBuildState,
  BackupSaveState,
  CampaignFileKind,
  CampaignStatus,
  CampaignTemplate,
  CreditTransactionType,
  CreditType,
  DeliveryState,
  DispatchState,
  ProviderKind,
  Role,
  SuppressionSource,
  TicketIssueType,
  TicketStatus,
  UserStatus,
} from '@herald/contract';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface UsersTable {
  id: Generated<string>;
  email: string;
  name: string;
  role: Role;
  status: ColumnType<UserStatus, UserStatus | undefined, UserStatus>;
  password_hash: string;
  token_version: Generated<number>;
  /** Set by an Admin reset; while true only the password change is allowed (migration 0008). */
  must_change_password: Generated<boolean>;
  /** Sealed TOTP secrets and the last accepted time step (migration 0037, two-factor sign-in). */
  two_factor_secret: ColumnType<string | null, string | null | undefined, string | null>;
  two_factor_pending_secret: ColumnType<string | null, string | null | undefined, string | null>;
  two_factor_enabled_at: ColumnType<
    Date | null,
    Date | string | null | undefined,
    Date | string | null
  >;
  /** bigint: read back as text. */
  two_factor_last_step: ColumnType<string | null, number | null | undefined, number | null>;
  created_by: string | null;
  ancestors: ColumnType<string[], string[] | undefined, string[]>;
  created_at: Timestamp;
  updated_at: Timestamp;
  own_number: string | null;
  company_name: string | null;
  company_logo: string | null;
  /** Own quiet hours, minutes after local midnight; NULL: inherited (migration 0040). */
  quiet_start: ColumnType<number | null, number | null | undefined, number | null>;
  quiet_end: ColumnType<number | null, number | null | undefined, number | null>;
  contact_person: string | null;
  contact_person_phone: string | null;
  mobile: string | null;
  firm_name: string | null;
  address: string | null;
  city: string | null;
  state: string | null;
  pincode: string | null;
}
export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;

export interface PasswordResetsTable {
  id: Generated<string>;
  user_id: string;
  otp_hash: string;
  expires_at: Timestamp;
  attempts: Generated<number>;
  used_at: Date | null;
  created_at: Timestamp;
}

/** A new user's one-time link to set a password; see migration 0024. */
export interface PasswordSetupTokensTable {
  id: Generated<string>;
  user_id: string;
  token_hash: string;
  expires_at: Timestamp;
  used_at: Date | null;
  created_at: Timestamp;
}

export interface RateLimitsTable {
  key: string;
  hits: number;
  window_start: Timestamp;
}

export interface CreditBalancesTable {
  user_id: string;
  credit_type: CreditType;
  /** bigint columns arrive as strings from pg; cast to int in queries that read them. */
  balance: ColumnType<string, number | string | undefined, never>;
  total_added: ColumnType<string, number | string | undefined, never>;
  total_removed: ColumnType<string, number | string | undefined, never>;
}

export interface CreditTransactionsTable {
  id: Generated<string>;
  group_id: string;
  to_user_id: string;
  to_email: string;
  to_name: string;
  by_user_id: string;
  by_email: string;
  by_name: string;
  type: CreditTransactionType;
  credit_type: CreditType;
  count: ColumnType<string, number | string, never>;
  rate_paise: ColumnType<string | null, number | string | null, never>;
  total_paise: ColumnType<string | null, number | string | null, never>;
  reason: string | null;
  kind: LedgerKind;
  campaign_id: string | null;
  created_at: ColumnType<Date, Date | string | undefined, never>;
}

export type LedgerKind =
  | 'mint'
  | 'burn'
  | 'transfer_in'
  | 'transfer_out'
  | 'campaign_debit'
  | 'campaign_refund'
  | 'carry_forward';

export interface CreditTransactionViewersTable {
  viewer_id: string;
  transaction_id: string;
}

export interface IdempotencyKeysTable {
  user_id: string;
  key: string;
  endpoint: string;
  request_hash: string;
  status: number | null;
  response: unknown;
  created_at: Generated<Date>;
}

export interface Database {
  users: UsersTable;
  password_resets: PasswordResetsTable;
  password_setup_tokens: PasswordSetupTokensTable;
  rate_limits: RateLimitsTable;
  credit_balances: CreditBalancesTable;
  credit_transactions: CreditTransactionsTable;
  credit_transaction_viewers: CreditTransactionViewersTable;
  idempotency_keys: IdempotencyKeysTable;
  campaigns: CampaignsTable;
  campaign_recipients: CampaignRecipientsTable;
  campaign_files: CampaignFilesTable;
  senders: SendersTable;
  providers: ProvidersTable;
  credit_routes: CreditRoutesTable;
  sender_templates: SenderTemplatesTable;
  sender_daily_usage: SenderDailyUsageTable;
  provider_media: ProviderMediaTable;
  provider_message_refs: ProviderMessageRefsTable;
  campaign_delivery_counts: CampaignDeliveryCountsTable;
  campaign_report_entries: CampaignReportEntriesTable;
  notifications: NotificationsTable;
  mail_outbox: MailOutboxTable;
  tickets: TicketsTable;
  ticket_replies: TicketRepliesTable;
  ticket_attachments: TicketAttachmentsTable;
  announcements: AnnouncementsTable;
  announcement_targets: AnnouncementTargetsTable;
  announcement_seen: AnnouncementSeenTable;
  analytics_state: AnalyticsStateTable;
  analytics_daily: AnalyticsDailyTable;
  analytics_user_totals: AnalyticsUserTotalsTable;
  backup_downloads: BackupDownloadsTable;
  backup_saves: BackupSavesTable;
  suppressions: SuppressionsTable;
  api_keys: ApiKeysTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_settings: WebhookSettingsTable;
  webhook_events: WebhookEventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_recipient_cursors: WebhookRecipientCursorsTable;
  two_factor_recovery_codes: TwoFactorRecoveryCodesTable;
  security_settings: SecuritySettingsTable;
  audit_log: AuditLogTable;
}

/** A one-time recovery code of two-factor sign-in, as its SHA-256 (migration 0037). */
export interface TwoFactorRecoveryCodesTable {
  user_id: string;
  code_hash: Buffer;
  used_at: Date | null;
}

/** The Admin's platform-wide security settings: one row (migration 0037). */
export interface SecuritySettingsTable {
  id: Generated<boolean>;
  require_two_factor: Generated<boolean>;
  /** How long audit entries are kept, in days (migration 0038). */
  audit_retention_days: Generated<number>;
  updated_at: Timestamp;
}

/** One audited action (migration 0038, docs/audit.md): insert only. */
export interface AuditLogTable {
  /** bigint: read back as text. */
  id: ColumnType<string, never, never>;
  at: ColumnType<Date, never, never>;
  actor_user_id: string | null;
  actor_api_key_id: string | null;
  actor_label: string;
  actor_role: string | null;
  ip: string | null;
  user_agent: string | null;
  action: string;
  target_type: string;
  target_id: string | null;
  target_label: string | null;
  subject_user_id: string | null;
  scope: ColumnType<string[], string[] | undefined, never>;
  changes: ColumnType<AuditChanges | null, string | null | undefined, never>;
}

/** A user's key for the public API (migration 0032, docs/api.md). */
export interface ApiKeysTable {
  id: Generated<string>;
  user_id: string;
  name: string;
  kind: ApiKeyKind;
  hash: Buffer;
  last4: string;
  token_version: number;
  created_at: Generated<Date>;
  last_used_at: Date | null;
}

/** A number an account's campaigns never send to (migration 0029). */
export interface SuppressionsTable {
  id: Generated<string>;
  owner_id: string;
  phone: string;
  source: SuppressionSource;
  created_at: Generated<Date>;
}

/** A "generate download" build run by the job runner (migration 0019). */
export interface BackupDownloadsTable {
  id: string;
  state: ColumnType<BackupBuildState, BackupBuildState | undefined, BackupBuildState>;
  /** bigint: arrives as a string from pg. */
  rows: ColumnType<string, number | undefined, number>;
  total_rows: ColumnType<string, number, number>;
  filename: string;
  created_at: Generated<Date>;
  heartbeat_at: ColumnType<Date, Date | undefined, Date>;
  ended_at: Date | null;
}

/** A "save backup to server" run by the job runner (migration 0028). */
export interface BackupSavesTable {
  id: string;
  state: ColumnType<BackupSaveState, BackupSaveState | undefined, BackupSaveState>;
  /** bigint: arrives as a string from pg. */
  rows: ColumnType<string, number | undefined, number>;
  total_rows: ColumnType<string, number | undefined, number>;
  /** The saved file's name, once done. */
  name: string | null;
  /** Why it failed, as shown to the Admin. */
  error: string | null;
  created_at: Generated<Date>;
  heartbeat_at: ColumnType<Date, Date | undefined, Date>;
  ended_at: Date | null;
}

/** Analytics rollups over the ledger (migration 0014); written only by its triggers and fold. */
export interface AnalyticsStateTable {
  id: boolean;
  folded_through: Date;
}
export interface AnalyticsDailyTable {
  scope_id: string;
  day: Date;
  credit_type: CreditType;
  added: string;
  removed: string;
  /** Campaign debits net of refunds (migration 0026). */
  used: string;
  /** Credits moved down the tree onto the scope's accounts (migration 0026). */
  distributed: string;
}
export interface AnalyticsUserTotalsTable {
  days: number;
  user_id: string;
  /** Campaign debits net of refunds (migration 0026). */
  used: string;
}

/** Mail waiting to be sent, or sent (body cleared); see migration 0006. */
export interface MailOutboxTable {
  id: Generated<string>;
  recipient: string;
  subject: string;
  body: string | null;
  /** The sender's display name (the recipient's branding); null: MAIL_FROM's own. */
  from_name: Generated<string | null>;
  created_at: Timestamp;
  sent_at: Date | null;
  attempts: Generated<number>;
  last_error: string | null;
}

export interface CampaignsTable {
  id: Generated<string>;
  user_id: string;
  created_by: string;
  credit_type: CreditType;
  /** Migration 0027: the creator's name for it, or the first words of the message. */
  name: ColumnType<string, string | undefined, string>;
  message: string;
  country_name: string | null;
  country_code: string | null;
  cta_call: string | null;
  cta_call_text: string | null;
  cta_url: string | null;
  cta_url_text: string | null;
  status: ColumnType<CampaignStatus, CampaignStatus | undefined, CampaignStatus>;
  recipient_count: number;
  charged: ColumnType<boolean, boolean | undefined, boolean>;
  charged_count: number;
  report_count: ColumnType<number, number | undefined, number>;
  report_delivered: ColumnType<number, number | undefined, number>;
  created_at: Timestamp;
  /** Reject's reason (migration 0025); null unless the campaign was rejected through Reject. */
  rejection_reason: ColumnType<string | null, string | null | undefined, string | null>;
  /** Migration 0033: the WhatsApp template it is sent as (CampaignTemplate), or null. */
  template: ColumnType<CampaignTemplate | null, string | null | undefined, string | null>;
  /** Migration 0034: made with a test API key; charged nothing, sent to the simulator only. */
  test: ColumnType<boolean, boolean | undefined, never>;
  /** Migration 0039: when to send it once approved (UTC); null: when approved. */
  send_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  // The delivery engine (migration 0016).
  sender_id: string | null;
  simulated: ColumnType<boolean, boolean | undefined, boolean>;
  dispatch_state: DispatchState | null;
  dispatch_cursor: string | null;
  dispatch_resume_at: ColumnType<
    Date | null,
    Date | string | null | undefined,
    Date | string | null
  >;
  dispatch_heartbeat_at: ColumnType<
    Date | null,
    Date | string | null | undefined,
    Date | string | null
  >;
  sent_count: ColumnType<number, number | undefined, number>;
  delivered_count: ColumnType<number, number | undefined, number>;
  read_count: ColumnType<number, number | undefined, number>;
  failed_count: ColumnType<number, number | undefined, number>;
  delivery_refunded: ColumnType<number, number | undefined, number>;
  delivery_settled: ColumnType<boolean, boolean | undefined, boolean>;
  // Quiet hours (migration 0040): the window captured at start, the recipients' zones, holds.
  quiet_start: ColumnType<number | null, number | null | undefined, number | null>;
  quiet_end: ColumnType<number | null, number | null | undefined, number | null>;
  recipient_zones: ColumnType<number[] | null, number[] | null | undefined, number[] | null>;
  dispatch_held_from: ColumnType<string | null, string | null | undefined, string | null>;
  dispatch_held_zones: ColumnType<number[] | null, number[] | null | undefined, number[] | null>;
  dispatch_quiet: ColumnType<boolean, boolean | undefined, boolean>;
}

/**
 * No foreign key to campaigns: its per-row check took 74% of a 1M-recipient ingest (migration
 * 0007). Integrity instead: rows are inserted only by the COPY in the transaction that inserts
 * their campaign (campaigns.service.ts insertCampaign), and removed only by the triggers on
 * campaigns (DELETE, including its owner's cascade, and TRUNCATE take the recipients along).
 */
export interface CampaignRecipientsTable {
  campaign_id: string;
  phone: string;
  /** NULL until the delivery engine claims the row (migration 0016). */
  state: ColumnType<DeliveryState | null, DeliveryState | null | undefined, DeliveryState | null>;
  attempts: ColumnType<number, number | undefined, number>;
  provider_message_id: ColumnType<string | null, string | null | undefined, string | null>;
  error_code: ColumnType<string | null, string | null | undefined, string | null>;
  error_text: ColumnType<string | null, string | null | undefined, string | null>;
  next_attempt_at: NullableTime;
  state_at: NullableTime;
  sent_at: NullableTime;
  delivered_at: NullableTime;
  read_at: NullableTime;
  failed_at: NullableTime;
  /** The recipient's zone id, set at ingest (migration 0040; modules/delivery/quiet/zones.ts). */
  zone: ColumnType<number, number | undefined, number>;
}

type NullableTime = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

/** A provider account messages leave through, with its limits and shared token bucket. */
export interface SendersTable {
  id: Generated<string>;
  name: string;
  provider_id: string;
  /** The provider-side address: WhatsApp's phone number id, an SMS sender id or number. */
  address: ColumnType<string, string | undefined, string>;
  rate_per_second: number;
  daily_limit: number | null;
  is_default: ColumnType<boolean, boolean | undefined, boolean>;
  bucket_tokens: ColumnType<number, number | undefined, number>;
  bucket_at: Timestamp;
  throttled_until: NullableTime;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A provider account (migration 0031); secrets sealed by lib/secret-box.ts. */
export interface ProvidersTable {
  id: ColumnType<string, string | undefined, never>;
  key: ColumnType<string, never, never>;
  name: string;
  kind: ProviderKind;
  builtin: ColumnType<boolean, boolean | undefined, never>;
  enabled: ColumnType<boolean, boolean | undefined, boolean>;
  settings: ColumnType<Record<string, string>, string | undefined, string>;
  secrets: ColumnType<Record<string, string>, string | undefined, string>;
  secret_hints: ColumnType<Record<string, string>, string | undefined, string>;
  callback_token: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A WhatsApp sender's approved template (migration 0033). */
export interface SenderTemplatesTable {
  id: Generated<string>;
  sender_id: string;
  name: string;
  language: string;
  body: string;
  variables: number;
  created_at: Timestamp;
}

/** Which sender a credit type goes through (migration 0031). */
export interface CreditRoutesTable {
  credit_type: CreditType;
  sender_id: string;
}

export interface SenderDailyUsageTable {
  sender_id: string;
  /** A UTC date: pg reads it as a Date; written as 'YYYY-MM-DD'. */
  day: ColumnType<Date, string, string>;
  sent: ColumnType<number, number | undefined, number>;
}

/** A campaign's media file uploaded to a provider once per sender (migration 0030). */
export interface ProviderMediaTable {
  sender_key: string;
  campaign_id: string;
  media_key: string;
  media_id: string | null;
  uploaded_at: NullableTime;
  claim: string;
  claimed_at: Timestamp;
}

/** Which recipient a provider's own message id names (migration 0030). */
export interface ProviderMessageRefsTable {
  provider: string;
  provider_message_id: string;
  campaign_id: string;
  phone: string;
  created_at: Timestamp;
}

/**
 * The engine's counter shards of a campaign's delivery counters (migration 23); the column keeps
 * its first name, `slot`.
 */
export interface CampaignDeliveryCountsTable {
  campaign_id: string;
  slot: number;
  sent: ColumnType<number, number | undefined, number>;
  delivered: ColumnType<number, number | undefined, number>;
  read: ColumnType<number, number | undefined, number>;
  failed: ColumnType<number, number | undefined, number>;
}

export interface CampaignFilesTable {
  id: Generated<string>;
  campaign_id: string;
  kind: CampaignFileKind;
  stored_name: string;
  original_name: string;
  mime: string;
  /** bigint: arrives as a string from pg. */
  size: ColumnType<string, number, never>;
  position: number;
}

export interface CampaignReportEntriesTable {
  campaign_id: string;
  phone: string;
  status: string;
}

export interface NotificationsTable {
  id: Generated<string>;
  user_id: string;
  event_type: string;
  message: string;
  link: string | null;
  created_at: Timestamp;
  read_at: Date | null;
  /** bigint identity (migration 0012), the keyset cursor: arrives as a string from pg. */
  seq: ColumnType<string, never, never>;
}

/** Support tickets (migration 0010); `assigned_to` null means the Admins. */
export interface TicketsTable {
  id: Generated<string>;
  /** bigint identity: arrives as a string from pg. */
  number: ColumnType<string, never, never>;
  user_id: string;
  subject: string;
  description: string;
  issue_type: ColumnType<TicketIssueType, TicketIssueType | undefined, TicketIssueType>;
  status: ColumnType<TicketStatus, TicketStatus | undefined, TicketStatus>;
  assigned_to: string | null;
  related_campaign: string | null;
  related_user: string | null;
  related_transaction: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface TicketRepliesTable {
  id: Generated<string>;
  ticket_id: string;
  user_id: string | null;
  user_email: string;
  user_name: string;
  message: string;
  created_at: Timestamp;
}

export interface TicketAttachmentsTable {
  id: Generated<string>;
  ticket_id: string;
  stored_name: string;
  original_name: string;
  mime: string;
  /** bigint: arrives as a string from pg. */
  size: ColumnType<string, number, never>;
  position: number;
}

/** Announcements (migration 0011); `image` is the stored file's generated name. */
export interface AnnouncementsTable {
  id: Generated<string>;
  /** bigint identity: arrives as a string from pg. */
  seq: ColumnType<string, never, never>;
  title: string;
  message: string;
  link: string | null;
  image: string | null;
  expiry_date: Date | null;
  visibility_type: AnnouncementVisibilityType;
  created_by: string | null;
  created_at: Timestamp;
}

export interface AnnouncementTargetsTable {
  announcement_id: string;
  user_id: string;
}

export interface AnnouncementSeenTable {
  announcement_id: string;
  user_id: string;
  seen_at: Timestamp;
}

/** A user's webhook endpoint (migration 0035, docs/api.md, Webhooks). */
export interface WebhookEndpointsTable {
  id: Generated<string>;
  user_id: string;
  url: string;
  description: Generated<string>;
  events: WebhookEventType[];
  /** The `whsec_…` secret, sealed (lib/secret-box.ts, context `webhook:<id>`). */
  secret: string;
  enabled: Generated<boolean>;
  disabled_reason: WebhookDisabledReason | null;
  failing_since: Date | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface WebhookSettingsTable {
  user_id: string;
  low_balance_threshold: number | null;
}

/** The webhook outbox: one row per event, written by webhook_emit (migration 0035). */
export interface WebhookEventsTable {
  id: Generated<string>;
  user_id: string;
  type: string;
  data: unknown;
  created_at: Generated<Date>;
}

/** One attempt to deliver one event to one endpoint. */
export interface WebhookDeliveriesTable {
  id: GeneratedAlways<string>;
  endpoint_id: string;
  event_id: string;
  attempt: number;
  status_code: number | null;
  duration_ms: number;
  ok: boolean;
  error: string | null;
  created_at: Generated<Date>;
  next_attempt_at: Date | null;
}

/** How far `recipients.updated` has reported a campaign: its last scan's snapshot. */
export interface WebhookRecipientCursorsTable {
  campaign_id: string;
  snapshot: string;
  scanned_at: Generated<Date>;
  last_change_at: Date | null;
  status_seen: CampaignStatus;
}
