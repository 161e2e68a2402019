// Bad: a module uses another module's repo.
import { findAlpha } from '../alpha/alpha.repo.js';

export const betaRoute = (id: string): string => findAlpha(id);
