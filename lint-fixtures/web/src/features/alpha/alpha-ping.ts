// Bad: alpha-ping and alpha-pong import each other (a cycle).
import { pong } from './alpha-pong';

export const ping = (n: number): string => (n > 0 ? pong(n - 1) : 'ping');
