/** The webhooks module as other modules reach it: events written in their transactions. */
export { emitWebhookEvent, lowBalanceCheck } from './webhook-events.js';
