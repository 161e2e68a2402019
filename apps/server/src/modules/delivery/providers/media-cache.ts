import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { DbOrTx } from '../../../db/database.js';
import * as repo from './media-cache.repo.js';
import type { MediaKey } from './media-cache.repo.js';

export type { MediaKey } from './media-cache.repo.js';

/**
 * A campaign's media uploaded once per sender (docs/delivery.md, Providers, WhatsApp Cloud API): the
 * first send of a campaign uploads each file and every later send, on any instance, uses the
 * provider's id. An id older than the provider's retention is uploaded again.
 */
export interface MediaIdCache {
  /**
   * The provider's id of `key`'s file: known and younger than `maxAgeMs`, or uploaded now by
   * `upload` (once across instances: the others wait for it).
   */
  idFor(
    key: MediaKey,
    maxAgeMs: number,
    upload: () => Promise<string>,
    signal?: AbortSignal,
  ): Promise<string>;
}

export interface MediaCacheOptions {
  /** A claim without an id after this long was left by a dead instance: taken over. */
  claimStaleMs?: number;
  /** How often a waiting send looks whether the upload it waits for is done. */
  pollMs?: number;
}

/** An upload that took longer than this is assumed dead (a 100 MB video at ~1 MB/s fits). */
const CLAIM_STALE_MS = 120_000;
const POLL_MS = 100;
/** The ids an instance keeps in memory (a few per campaign being sent). */
const KNOWN_MAX = 1000;

/** The shared cache in PostgreSQL, with this instance's answers kept in memory. */
export class PgMediaIdCache implements MediaIdCache {
  private readonly known = new Map<string, { id: string; uploadedAt: number }>();
  private readonly inFlight = new Map<string, Promise<string>>();
  private readonly claimStaleMs: number;
  private readonly pollMs: number;

  constructor(
    private readonly db: DbOrTx,
    opts: MediaCacheOptions = {},
  ) {
    this.claimStaleMs = opts.claimStaleMs ?? CLAIM_STALE_MS;
    this.pollMs = opts.pollMs ?? POLL_MS;
  }

  async idFor(
    key: MediaKey,
    maxAgeMs: number,
    upload: () => Promise<string>,
    signal?: AbortSignal,
  ): Promise<string> {
    const name = `${key.senderKey}\n${key.campaignId}\n${key.mediaKey}`;
    const mem = this.known.get(name);
    if (mem && Date.now() - mem.uploadedAt < maxAgeMs) return mem.id;
    // One lookup or upload per file on this instance at a time; the sends of a batch share it.
    let pending = this.inFlight.get(name);
    if (!pending) {
      pending = this.resolve(key, maxAgeMs, upload, signal).then((found) => {
        // Bounded: the oldest answer goes first (a campaign's files are asked for together).
        if (this.known.size >= KNOWN_MAX)
          this.known.delete(this.known.keys().next().value as string);
        this.known.set(name, found);
        return found.id;
      });
      const settled = () => this.inFlight.delete(name);
      pending.then(settled, settled);
      this.inFlight.set(name, pending);
    }
    return pending;
  }

  private async resolve(
    key: MediaKey,
    maxAgeMs: number,
    upload: () => Promise<string>,
    signal: AbortSignal | undefined,
  ): Promise<{ id: string; uploadedAt: number }> {
    for (;;) {
      signal?.throwIfAborted();
      const row = await repo.readMedia(this.db, key);
      if (row?.media_id && row.uploaded_at && Date.now() - row.uploaded_at.getTime() < maxAgeMs) {
        return { id: row.media_id, uploadedAt: row.uploaded_at.getTime() };
      }
      const claim = randomUUID();
      const now = Date.now();
      const won = await repo.claimMedia(
        this.db,
        key,
        claim,
        new Date(now - this.claimStaleMs),
        new Date(now - maxAgeMs),
      );
      if (won) {
        let id: string;
        try {
          id = await upload();
        } catch (err) {
          await repo.releaseMedia(this.db, key, claim);
          throw err;
        }
        const at = await repo.finishMedia(this.db, key, claim, id);
        return { id, uploadedAt: (at ?? new Date()).getTime() };
      }
      // Another send (here or on another instance) is uploading: its id will be in the row.
      // The send's own timeout bounds the wait (a dead uploader's claim turns stale later).
      await sleep(this.pollMs, undefined, { signal });
    }
  }
}
