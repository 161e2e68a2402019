/**
 * The delivery engine's public face: everything another part of the server uses of it. The
 * engine's stages live in sub-folders (docs/delivery.md, Stages and files): `dispatch/`
 * (claiming and sending), `status/` (provider webhooks), `settle/` (completion, refunds,
 * report), `providers/` (adapters and the simulator), `senders/` (the Providers screen: providers, senders, routes, templates) and
 * `read/` (a campaign's delivery breakdown).
 */
export { createDelivery, webhookUrl, type Delivery } from './delivery-context.js';
export { deliveryCrontab, deliveryTasks, recoverAtStart } from './delivery-tasks.js';
export { campaignDispatch } from './dispatch/dispatch-control.service.js';
export { dispatchControlRoutes } from './dispatch/dispatch-control.routes.js';
export { deliveryReadRoutes } from './read/delivery-read.routes.js';
export { sendersRoutes } from './senders/senders.routes.js';
export { providersRoutes } from './senders/providers.routes.js';
export { templatesRoutes } from './senders/templates.routes.js';
export { webhookRoutes } from './status/webhooks.routes.js';
export { SimulatorServer } from './providers/simulator-server.js';
