// Good: a test uses another module's test fixtures.
import { alphaRow } from '../alpha/alpha.test-fixtures.js';

export const betaRow = alphaRow('beta');
