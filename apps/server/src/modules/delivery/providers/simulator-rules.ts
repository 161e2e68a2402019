import type { Outcome } from './simulator-events.js';

/**
 * The simulator's deterministic behaviour, apart from its HTTP plumbing: which test
 * numbers it refuses and how, and the fate of an accepted message as a hash of its reference.
 * simulator-server.ts documents them in its first comment and re-exports them.
 */

export const SIMULATOR_RULES = {
  /** Always refused, permanently. */
  undeliverableSuffix: '0000',
  /** Always refused: the person stopped the sender's marketing messages (131050). */
  optedOutSuffix: '1050',
  /** Refused as the pair (sender, recipient) rate limit for the first attempts. */
  pairRateLimitSuffix: '1313',
  pairRateLimitAttempts: 2,
  /** A server error on the first attempt. */
  transientSuffix: '5000',
  transientAttempts: 1,
} as const;

/** The provider codes the simulator answers with (WhatsApp Cloud API's). */
export const SIMULATOR_CODES = {
  rateLimit: 130429,
  pairRateLimit: 131056,
  undeliverable: 131026,
  notDelivered: 131049,
  optedOut: 131050,
  invalidParameter: 100,
} as const;

/** A refusal: the HTTP status and the body to answer. */
export interface Refusal {
  status: number;
  body: { error: { code?: number; message: string } };
}

/**
 * The test-number rules for a send to `to`: a refusal, or null to accept. `nextAttempt` counts
 * this attempt of the reference and answers its number (from 1); it is called only for numbers
 * whose rule depends on the attempt.
 */
export function refusalFor(to: string, nextAttempt: () => number): Refusal | null {
  const R = SIMULATOR_RULES;
  if (to.endsWith(R.undeliverableSuffix)) {
    return {
      status: 400,
      body: { error: { code: SIMULATOR_CODES.undeliverable, message: 'Message undeliverable' } },
    };
  }
  if (to.endsWith(R.optedOutSuffix)) {
    return {
      status: 400,
      body: {
        error: {
          code: SIMULATOR_CODES.optedOut,
          message: 'This recipient has chosen to stop receiving marketing messages',
        },
      },
    };
  }
  const pair = to.endsWith(R.pairRateLimitSuffix);
  const transient = to.endsWith(R.transientSuffix);
  if (!pair && !transient) return null;
  const attempt = nextAttempt();
  if (pair && attempt <= R.pairRateLimitAttempts) {
    return {
      status: 429,
      body: {
        error: {
          code: SIMULATOR_CODES.pairRateLimit,
          message: 'Too many messages sent from this phone number to the same phone number',
        },
      },
    };
  }
  if (transient && attempt <= R.transientAttempts) {
    return { status: 500, body: { error: { message: 'Internal server error' } } };
  }
  return null;
}

/** 32-bit FNV-1a of `s` from `seed`, mixed (murmur3's finaliser), as a fraction in [0, 1). */
function hashFraction(s: string, seed: number): number {
  let h = seed >>> 0;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  // FNV alone barely moves the high bits for references that differ in their last digits.
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return (h >>> 0) / 0x1_0000_0000;
}

/** The deterministic fate of a reference under the given ratios. */
export function outcomeOf(reference: string, failRatio: number, readRatio: number): Outcome {
  const failed = hashFraction(reference, 0x811c9dc5) < failRatio;
  return { failed, read: !failed && hashFraction(reference, 0x01234567) < readRatio };
}
