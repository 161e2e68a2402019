// Bad: code that ships uses another module's test fixtures.
import { alphaRow } from '../alpha/alpha.test-fixtures.js';

export const betaSeed = alphaRow('seed');
