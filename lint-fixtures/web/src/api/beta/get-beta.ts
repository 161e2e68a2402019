// Good: api/ imports lib/.
import { label } from '../../lib/format';

export const getBeta = (): string => label(' beta ');
