// Good: a module uses another module's service.
import { alphaFor } from '../alpha/alpha.service.js';

export const betaFor = (id: string): string => `beta of ${alphaFor(id)}`;
