import type { DbOrTx } from '../../../db/database.js';
import type { FileStore } from '../../../lib/storage/file-store.js';
import type { SecretBox } from '../../../lib/secret-box.js';
import type { ProviderAdapter } from './provider.js';
import type { BuiltAdapter } from './registry.js';
import { readStoredProvider } from './stored-provider.repo.js';
import { adapterOfStored, callbackTokenOf, type StoredProvider } from './stored-provider.js';

/**
 * The adapters of the providers kept in the database (docs/delivery.md, Providers in the
 * database), built on first use and rebuilt when the row changed:
 * - for sending, per provider and sender address: the dispatcher reads the provider's row with
 *   the campaign at each slice, so an edit on any instance holds from the next slice on;
 * - for webhooks, per provider key, re-read at most every `ttlMs` (one primary-key read per
 *   provider every few seconds, not one per callback): an edit (a new app secret, a disabled
 *   provider) holds on every instance within that time, and at once on the one that saved it.
 */

export interface StoredDeps {
  db: DbOrTx;
  files: Pick<FileStore, 'open'>;
  secretBox: SecretBox;
  /** This app's public base URL, where callbacks must arrive. */
  publicUrl: string;
}

/** A provider's webhook: its adapter and the token its path must carry, when it has one. */
export interface WebhookEndpoint {
  adapter: ProviderAdapter;
  callbackToken?: string;
}

export type SenderTarget = StoredProvider & { address: string };

interface Built {
  version: number;
  adapter: BuiltAdapter;
}

export class AdapterDirectory {
  private readonly sending = new Map<string, Built>();
  private readonly webhooks = new Map<
    string,
    { readAt: number; version: number; endpoint: WebhookEndpoint | undefined; adapter?: Built }
  >();

  constructor(
    private readonly deps: StoredDeps,
    private readonly ttlMs = 5_000,
  ) {}

  forSender(target: SenderTarget): ProviderAdapter {
    const id = `${target.key}\n${target.address}`;
    const version = target.updated_at.getTime();
    const cached = this.sending.get(id);
    if (cached !== undefined && cached.version === version) return cached.adapter;
    const adapter = adapterOfStored(target, target.address, this.built());
    cached?.adapter.close?.();
    this.sending.set(id, { version, adapter });
    return adapter;
  }

  async endpoint(key: string): Promise<WebhookEndpoint | undefined> {
    const cached = this.webhooks.get(key);
    if (cached && Date.now() - cached.readAt < this.ttlMs) return cached.endpoint;
    const row = await readStoredProvider(this.deps.db, key);
    if (!row || row.builtin) {
      cached?.adapter?.adapter.close?.();
      this.webhooks.set(key, { readAt: Date.now(), version: 0, endpoint: undefined });
      return undefined;
    }
    const version = row.updated_at.getTime();
    if (cached?.adapter && cached.version === version) {
      cached.readAt = Date.now();
      return cached.endpoint;
    }
    const adapter = adapterOfStored(row, '', this.built());
    cached?.adapter?.adapter.close?.();
    const endpoint = { adapter, callbackToken: callbackTokenOf(this.deps.secretBox, row) };
    this.webhooks.set(key, {
      readAt: Date.now(),
      version,
      endpoint,
      adapter: { version, adapter },
    });
    return endpoint;
  }

  /** Drops what was built for a provider (after this instance saved or removed it). */
  forget(key: string): void {
    this.webhooks.get(key)?.adapter?.adapter.close?.();
    this.webhooks.delete(key);
    for (const [id, built] of this.sending) {
      if (id.startsWith(`${key}\n`)) {
        built.adapter.close?.();
        this.sending.delete(id);
      }
    }
  }

  close(): void {
    for (const b of this.sending.values()) b.adapter.close?.();
    for (const w of this.webhooks.values()) w.adapter?.adapter.close?.();
    this.sending.clear();
    this.webhooks.clear();
  }

  private built() {
    const { db, files, secretBox, publicUrl } = this.deps;
    return { db, files, secretBox, publicBaseUrl: publicUrl };
  }
}
