// Bad: a job reaches a module's repo instead of its service.
import { findAlpha } from '../modules/alpha/alpha.repo.js';

export const alphaJob = (id: string): string => findAlpha(id);
