// Bad: a module uses another module's internal file, neither its service nor its index.ts.
import { formatAlpha } from '../alpha/alpha-format.js';

export const betaName = (id: string): string => formatAlpha(id);
