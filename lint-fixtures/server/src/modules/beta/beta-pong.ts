// Bad: the other half of the beta-ping cycle.
import { ping } from './beta-ping.js';

export const pong = (n: number): string => (n > 0 ? ping(n - 1) : 'pong');
