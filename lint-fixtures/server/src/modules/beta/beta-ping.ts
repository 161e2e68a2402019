// Bad: beta-ping and beta-pong import each other (a cycle).
import { pong } from './beta-pong.js';

export const ping = (n: number): string => (n > 0 ? pong(n - 1) : 'ping');
