/**
 * The campaigns module's public face for other modules (the delivery engine reads and locks
 * campaigns through it; the data cleanup deletes them and their files). Within the module,
 * files import each other directly.
 */
export { lockVisibleCampaign, visibleCampaign } from './campaign-access.js';
export type { CampaignDispatch } from './campaign-dispatch.js';
export { CAMPAIGN_FILES_FOLDER, campaignFileKey, removeCampaignFiles } from './campaign-files.js';
export {
  deleteCampaigns,
  type CampaignSelection,
  type DeletedCampaigns,
} from './campaign-cleanup.repo.js';
export { presentDelivery } from './campaigns.presenter.js';
export { shardSums, summedCounts } from './delivery-counts.sql.js';
export {
  campaignTarget,
  recordDispatchMove,
  recordStatusMove,
  type AuditedCampaign,
} from './campaign-audit.js';
/** Formula-safe CSV text, for other modules' exports (the audit log's). */
export { csvText } from './report-csv.js';
export { zoneName, zoneOfCountry, DEFAULT_COUNTRY } from './zones/zones.js';
export { ZONE_IDS } from './zones/zone-ids.js';
