/**
 * The quiet-hours module's public face: the delivery engine captures a campaign's window as it
 * starts it (docs/delivery.md, Quiet hours).
 */
export {
  captureQuietHours,
  effectiveQuietMinutes,
  type QuietMinutes,
} from './quiet-hours.service.js';
