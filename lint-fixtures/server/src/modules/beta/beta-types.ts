// Bad: a type import crosses the boundary too; the type belongs in the other module's index.ts.
import type { AlphaRow } from '../alpha/alpha.repo.js';

export const betaOf = (row: AlphaRow): string => row.id;
