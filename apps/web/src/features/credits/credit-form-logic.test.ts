import { describe, expect, it } from 'vitest';
import { server } from '@herald/contract';
import { ApiError } from '../../lib/api-client';
import { availableCredits } from '../../api/credits/get-balances';
import {
  checkCreditForm,
  EMPTY_CREDIT_FORM,
  keepsIdempotencyKey,
  loadErrorMessage,
} from './credit-form-logic';

const filled = {
  ...EMPTY_CREDIT_FORM,
  to: 'Asha@Example.com ',
  count: '25',
  rate: '0.35',
  reason: '  top-up  ',
};

describe('checkCreditForm', () => {
  it('sends count and rate as numbers, the rate in rupees, with a cleaned email and reason', () => {
    expect(checkCreditForm(filled)).toEqual({
      ok: true,
      body: {
        to: 'asha@example.com',
        creditType: 'Normal Message - domestic',
        type: 'Added',
        count: 25,
        rate: 0.35,
        reason: 'top-up',
      },
    });
  });

  it('omits an empty reason', () => {
    const checked = checkCreditForm({ ...filled, reason: '   ' });
    expect(checked.ok && 'reason' in checked.body).toBe(false);
  });

  it('requires user, count and rate', () => {
    const checked = checkCreditForm(EMPTY_CREDIT_FORM);
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    expect(checked.errors.to).toBe('Email is required.');
    expect(checked.errors.count).toBe('Count is required.');
    expect(checked.errors.rate).toBe('Rate is required.');
  });

  it('rejects a fractional count and a rate with more than 2 decimals', () => {
    const checked = checkCreditForm({ ...filled, count: '1.5', rate: '0.355' });
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    expect(checked.errors.count).toBe('Count must be a whole number.');
    expect(checked.errors.rate).toMatch(/at most 2 decimals/);
  });

  it('rejects an unknown type', () => {
    const checked = checkCreditForm({ ...filled, type: 'Moved' });
    expect(checked.ok ? undefined : checked.errors.type).toBe('Choose Added or Removed.');
  });
});

describe('availableCredits', () => {
  const balances = { 'asha@example.com': { 'With DP - domestic': 7 } };
  it('reads the balance of a user and type, 0 when absent', () => {
    expect(availableCredits(balances, 'asha@example.com', 'With DP - domestic')).toBe(7);
    expect(availableCredits(balances, 'asha@example.com', 'Own Number + DP + CTA')).toBe(0);
    expect(availableCredits(balances, 'ravi@example.com', 'With DP - domestic')).toBe(0);
    expect(availableCredits(undefined, 'asha@example.com', 'With DP - domestic')).toBe(0);
  });
});

describe('keepsIdempotencyKey', () => {
  it('keeps the key when the outcome is unknown or still running', () => {
    expect(keepsIdempotencyKey(new TypeError('Failed to fetch'))).toBe(true);
    expect(keepsIdempotencyKey(new ApiError(502, undefined))).toBe(true);
    expect(keepsIdempotencyKey(new ApiError(409, server.idempotencyInProgress))).toBe(true);
  });
  it('drops it after a definite answer', () => {
    expect(keepsIdempotencyKey(new ApiError(409, server.insufficientCredits))).toBe(false);
    expect(keepsIdempotencyKey(new ApiError(404, server.creditRecipientNotFound))).toBe(false);
    expect(keepsIdempotencyKey(new ApiError(400, 'Invalid input.'))).toBe(false);
  });
});

describe('loadErrorMessage', () => {
  const err = new ApiError(500, 'Database unavailable.');
  it("gives Admin the fixed text and resellers the server's message", () => {
    expect(loadErrorMessage('Admin', err)).toBe('Failed to load data.');
    expect(loadErrorMessage('Reseller', err)).toBe('Database unavailable.');
    expect(loadErrorMessage('Sub-Reseller', new TypeError('x'))).toBe('Failed to fetch page data.');
  });
});
