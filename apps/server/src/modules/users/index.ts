/**
 * The users module's public face for other modules beside users.service.ts: the data cleanup's
 * deletes, which run in the cleanup's own transaction (modules/backup/cleanup.service.ts).
 */
export { deleteUsers, lockUsersCreatedBetween, reparentSurvivors } from './users-cleanup.repo.js';
