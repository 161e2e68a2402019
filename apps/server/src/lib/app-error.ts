import { server as msg, type ApiErrorCode } from '@herald/contract';

/**
 * The one error type services throw; the error handler answers `{ message }` with `status`
 * (and /api/v1 adds `code`: this one's, else the status's, contract public-api.ts).
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
    readonly code?: ApiErrorCode,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string = msg.invalidInput) => new AppError(400, message);
export const unauthorized = (message: string = msg.notLoggedIn) => new AppError(401, message);
export const forbidden = (message: string = msg.forbidden) => new AppError(403, message);
export const notFound = (message: string = msg.notFound) => new AppError(404, message);
export const conflict = (message: string) => new AppError(409, message);
/** A balance short of a debit: a 409 the public API tells apart by its code. */
export const insufficientCredits = () =>
  new AppError(409, msg.insufficientCredits, {}, 'insufficient_credits');
export const tooMany = (retryAfterSeconds: number) =>
  new AppError(429, msg.tooManyRequests, { 'retry-after': String(retryAfterSeconds) });
/** The server is saturated right now (not the client's fault): come back after `retry-after`. */
export const busy = (retryAfterSeconds: number) =>
  new AppError(503, msg.serverBusy, { 'retry-after': String(retryAfterSeconds) });
