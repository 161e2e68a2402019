// Good: a job uses a module's service.
import { betaFor } from '../modules/beta/beta.service.js';

export const betaJob = (id: string): string => betaFor(id);
