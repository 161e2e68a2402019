// Bad: the other half of the alpha-ping cycle.
import { ping } from './alpha-ping';

export const pong = (n: number): string => (n > 0 ? ping(n - 1) : 'pong');
