// Good: components/ imports lib/.
import { label } from '../lib/format';

export const card = (text: string): string => `[${label(text)}]`;
