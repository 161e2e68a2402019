import { sql as init } from './0001-init.js';
import { sql as credits } from './0002-credits.js';
import { sql as campaigns } from './0003-campaigns.js';
import { sql as campaignReports } from './0004-campaign-reports.js';
import { sql as historyTypeIndex } from './0005-history-type-index.js';
import { sql as mailOutbox } from './0006-mail-outbox.js';
import { sql as recipientsWithoutForeignKey } from './0007-recipients-without-foreign-key.js';
import { sql as passwordChangeRequired } from './0008-password-change-required.js';
import { sql as usersSearch } from './0009-users-search.js';
import { sql as tickets } from './0010-tickets.js';
import { sql as announcements } from './0011-announcements.js';
import { sql as notificationsRead } from './0012-notifications-read.js';
import { sql as analytics } from './0014-analytics.js';
import { sql as ledgerCleanup } from './0015-ledger-cleanup.js';
import { sql as delivery } from './0016-delivery.js';
import { sql as deliveryHotUpdates } from './0017-delivery-hot-updates.js';
import { sql as backupDownloads } from './0019-backup-downloads.js';
import { sql as deliveryClaimedBy } from './0020-delivery-claimed-by.js';
import { sql as deliveryClaimers } from './0021-delivery-claimers.js';
import { sql as deliveryFillfactor } from './0022-delivery-fillfactor.js';
import { sql as deliveryCounts } from './0023-delivery-counts.js';
import { sql as setPasswordLinks } from './0024-set-password-links.js';
import { sql as campaignRejectionReason } from './0025-campaign-rejection-reason.js';
import { sql as analyticsSpentDistributed } from './0026-analytics-spent-distributed.js';
import { sql as campaignNames } from './0027-campaign-names.js';
import { sql as backupSaves } from './0028-backup-saves.js';
import { sql as suppressions } from './0029-suppressions.js';
import { sql as providerAdapters } from './0030-provider-adapters.js';
import { sql as providers } from './0031-providers.js';
import { sql as apiKeys } from './0032-api-keys.js';
import { sql as senderTemplates } from './0033-sender-templates.js';
import { sql as campaignTest } from './0034-campaign-test.js';
import { sql as webhooks } from './0035-webhooks.js';
import { sql as twoFactor } from './0037-two-factor.js';
import { sql as auditLog } from './0038-audit-log.js';
import { sql as campaignSendAt } from './0039-campaign-send-at.js';
import { sql as quietHours } from './0040-quiet-hours.js';
import { sql as auditLogSearch } from './0043-audit-log-search.js';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** Every migration, in order. Append only: a released migration is never edited. */
export const migrations: Migration[] = [
  { version: 1, name: 'init', sql: init },
  { version: 2, name: 'credits', sql: credits },
  { version: 3, name: 'campaigns', sql: campaigns },
  { version: 4, name: 'campaign-reports', sql: campaignReports },
  { version: 5, name: 'history-type-index', sql: historyTypeIndex },
  { version: 6, name: 'mail-outbox', sql: mailOutbox },
  { version: 7, name: 'recipients-without-foreign-key', sql: recipientsWithoutForeignKey },
  { version: 8, name: 'password-change-required', sql: passwordChangeRequired },
  { version: 9, name: 'users-search', sql: usersSearch },
  { version: 10, name: 'tickets', sql: tickets },
  { version: 11, name: 'announcements', sql: announcements },
  { version: 12, name: 'notifications-read', sql: notificationsRead },
  { version: 14, name: 'analytics', sql: analytics },
  { version: 15, name: 'ledger-cleanup', sql: ledgerCleanup },
  { version: 16, name: 'delivery', sql: delivery },
  { version: 17, name: 'delivery-hot-updates', sql: deliveryHotUpdates },
  { version: 19, name: 'backup-downloads', sql: backupDownloads },
  { version: 20, name: 'delivery-claimed-by', sql: deliveryClaimedBy },
  { version: 21, name: 'delivery-claimers', sql: deliveryClaimers },
  { version: 22, name: 'delivery-fillfactor', sql: deliveryFillfactor },
  { version: 23, name: 'delivery-counts', sql: deliveryCounts },
  { version: 24, name: 'set-password-links', sql: setPasswordLinks },
  { version: 25, name: 'campaign-rejection-reason', sql: campaignRejectionReason },
  { version: 26, name: 'analytics-spent-distributed', sql: analyticsSpentDistributed },
  { version: 27, name: 'campaign-names', sql: campaignNames },
  { version: 28, name: 'backup-saves', sql: backupSaves },
  { version: 29, name: 'suppressions', sql: suppressions },
  { version: 30, name: 'provider-adapters', sql: providerAdapters },
  { version: 31, name: 'providers', sql: providers },
  { version: 32, name: 'api-keys', sql: apiKeys },
  { version: 33, name: 'sender-templates', sql: senderTemplates },
  { version: 34, name: 'campaign-test', sql: campaignTest },
  { version: 35, name: 'webhooks', sql: webhooks },
  { version: 37, name: 'two-factor', sql: twoFactor },
  { version: 38, name: 'audit-log', sql: auditLog },
  { version: 39, name: 'campaign-send-at', sql: campaignSendAt },
  { version: 40, name: 'quiet-hours', sql: quietHours },
  { version: 43, name: 'audit-log-search', sql: auditLogSearch },
];
