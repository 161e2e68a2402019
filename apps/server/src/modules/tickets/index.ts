/**
 * The tickets module's public face for other modules beside tickets.service.ts: the data
 * cleanup's delete (in the cleanup's transaction) and the removal of the files after its commit,
 * and the hand-back of a user's assigned tickets when its role stops being Reseller.
 */
export { deleteTicketsOf, type DeletedTickets } from './ticket-cleanup.repo.js';
export { removeTicketFiles } from './ticket-files.js';
export { unassignTicketsOf } from './tickets.repo.js';
