// Bad: a module reaches into another module's sub-folder; that one shows it through its index.ts.
import { innerAlpha } from '../alpha/inner/alpha-inner.service.js';

export const betaInner = (id: string): string => innerAlpha(id);
