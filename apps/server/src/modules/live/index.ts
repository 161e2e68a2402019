/**
 * The live channel's public face for other modules: telling open campaign pages that delivery
 * moved (the delivery engine calls it once per batch it writes).
 */
export { publishCampaignProgress } from './campaign-progress.js';
