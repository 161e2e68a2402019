// Good: a module uses another module's public face (its index.ts).
import { formatAlpha } from '../alpha/index.js';

export const betaLabel = (id: string): string => formatAlpha(id);
