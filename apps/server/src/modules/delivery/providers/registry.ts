import type { ProviderKind } from '@herald/contract';
import type { DbOrTx } from '../../../db/database.js';
import type { FileStore } from '../../../lib/storage/file-store.js';
import { PgMediaIdCache, type MediaIdCache } from './media-cache.js';
import type { ProviderAdapter } from './provider.js';
import { SimulatorAdapter } from './simulator.js';
import { SmsHttpAdapter, type SmsHttpCredentials, type SmsHttpSettings } from './sms-http.js';
import { JASMIN_PRESET } from './sms-jasmin.js';
import { TWILIO_PRESET } from './sms-twilio.js';
import { webhookUrl } from './webhook-url.js';
import {
  WhatsAppCloudAdapter,
  type WhatsAppCloudCredentials,
  type WhatsAppCloudSettings,
} from './whatsapp-cloud.js';

/**
 * Builds a provider's adapter from plain settings and credentials (docs/delivery.md,
 * Providers): the one place a configured provider (a `senders` row, once providers are
 * configured in the app) becomes an adapter, so that work only has to hand its rows here and
 * register the result with `ctx.delivery.register`.
 */

type SmsSettings = Omit<SmsHttpSettings, 'callbackUrl'>;

/** Each kind's settings and credentials. */
export interface ProviderConfigs {
  simulator: { settings: { baseUrl: string }; credentials: { webhookSecret: string } };
  whatsapp_cloud: { settings: WhatsAppCloudSettings; credentials: WhatsAppCloudCredentials };
  jasmin: { settings: SmsSettings; credentials: SmsHttpCredentials & { callbackToken: string } };
  twilio: { settings: SmsSettings; credentials: SmsHttpCredentials };
}

type ProviderConfig = {
  [K in ProviderKind]: { kind: K } & ProviderConfigs[K];
}[ProviderKind];

export interface ProviderDeps {
  db: DbOrTx;
  /** Where the media bytes are read (WhatsApp's uploads). */
  files: Pick<FileStore, 'open'>;
  /** This app's public base URL, where the providers' callbacks must arrive. */
  publicBaseUrl: string;
  /** The media-id cache; one in PostgreSQL on `db` when not given. */
  media?: MediaIdCache;
  /**
   * The provider's key (docs/delivery.md, Providers in the database): the adapter's name and
   * its webhook path's first segment; the kind when not given.
   */
  name?: string;
  /** The unguessable last segment of its webhook path, when it has one. */
  callbackToken?: string;
}

export type BuiltAdapter = ProviderAdapter & { close?(): void };

export function createProviderAdapter<K extends ProviderKind>(
  kind: K,
  settings: ProviderConfigs[K]['settings'],
  credentials: ProviderConfigs[K]['credentials'],
  deps: ProviderDeps,
): BuiltAdapter {
  const config = { kind, settings, credentials } as ProviderConfig;
  switch (config.kind) {
    case 'simulator':
      return new SimulatorAdapter(
        config.settings.baseUrl,
        config.credentials.webhookSecret,
        undefined,
        deps.name,
      );
    case 'whatsapp_cloud':
      return new WhatsAppCloudAdapter(
        config.settings,
        config.credentials,
        { files: deps.files, media: deps.media ?? new PgMediaIdCache(deps.db) },
        deps.name,
      );
    case 'jasmin':
      return new SmsHttpAdapter(
        JASMIN_PRESET,
        {
          ...config.settings,
          callbackUrl: webhookUrl(
            deps.publicBaseUrl,
            deps.name ?? 'jasmin',
            config.credentials.callbackToken,
          ),
        },
        config.credentials,
        deps.name,
      );
    case 'twilio':
      return new SmsHttpAdapter(
        TWILIO_PRESET,
        {
          ...config.settings,
          callbackUrl: webhookUrl(deps.publicBaseUrl, deps.name ?? 'twilio', deps.callbackToken),
        },
        config.credentials,
        deps.name,
      );
  }
}
