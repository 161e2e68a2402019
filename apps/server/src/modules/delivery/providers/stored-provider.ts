import type { ProviderKind } from '@herald/contract';
import type { SecretBox } from '../../../lib/secret-box.js';
import { createProviderAdapter, type BuiltAdapter, type ProviderDeps } from './registry.js';
import { webhookUrl } from './webhook-url.js';

/**
 * A provider as the database keeps it (migration 0031; docs/delivery.md, Providers in the
 * database) and how it becomes an adapter: settings in clear, each secret sealed under the
 * context `provider:<id>:<field>`, so a sealed value copied to another row or field does not
 * open there.
 */
export interface StoredProvider {
  id: string;
  /** 'simulator' for the built-in simulator, the id for any other. */
  key: string;
  kind: ProviderKind;
  builtin: boolean;
  enabled: boolean;
  settings: Record<string, string>;
  /** Sealed, by field name. */
  secrets: Record<string, string>;
  /** Sealed; null for the built-in simulator (its events are signed, its path is fixed). */
  callback_token: string | null;
  updated_at: Date;
}

export const CALLBACK_TOKEN_FIELD = 'callbackToken';

export const secretContext = (providerId: string, field: string) =>
  `provider:${providerId}:${field}`;

export function openSecrets(box: SecretBox, row: StoredProvider): Record<string, string> {
  const open: Record<string, string> = {};
  for (const [field, sealed] of Object.entries(row.secrets)) {
    open[field] = box.open(sealed, secretContext(row.id, field));
  }
  return open;
}

export function callbackTokenOf(box: SecretBox, row: StoredProvider): string | undefined {
  if (row.callback_token === null) return undefined;
  return box.open(row.callback_token, secretContext(row.id, CALLBACK_TOKEN_FIELD));
}

/** Where this provider's status and inbound callbacks must be sent. */
export function callbackUrlOf(publicUrl: string, row: StoredProvider, token?: string): string {
  return webhookUrl(publicUrl, row.key, token);
}

/**
 * The adapter that sends through `address` (WhatsApp's phone number id, an SMS sender id) of
 * a stored provider; with an empty address it still verifies and reads the provider's webhooks.
 */
export function adapterOfStored(
  row: StoredProvider,
  address: string,
  deps: ProviderDeps & { secretBox: SecretBox },
): BuiltAdapter {
  const s = row.settings;
  const c = openSecrets(deps.secretBox, row);
  const callbackToken = callbackTokenOf(deps.secretBox, row);
  const own: ProviderDeps = { ...deps, name: row.key, callbackToken };
  const domesticCountryCode = s.domesticCountryCode || undefined;
  const need = (v: string | undefined) => v ?? '';
  switch (row.kind) {
    case 'simulator':
      return createProviderAdapter(
        'simulator',
        { baseUrl: need(s.baseUrl) },
        { webhookSecret: need(c.webhookSecret) },
        own,
      );
    case 'whatsapp_cloud':
      return createProviderAdapter(
        'whatsapp_cloud',
        {
          baseUrl: need(s.baseUrl),
          apiVersion: need(s.apiVersion),
          phoneNumberId: address,
          domesticCountryCode,
        },
        {
          accessToken: need(c.accessToken),
          appSecret: need(c.appSecret),
          verifyToken: need(c.verifyToken),
        },
        own,
      );
    case 'jasmin':
      return createProviderAdapter(
        'jasmin',
        { baseUrl: need(s.baseUrl), from: address, domesticCountryCode },
        {
          username: need(c.username),
          password: need(c.password),
          callbackToken: need(callbackToken),
        },
        own,
      );
    case 'twilio':
      return createProviderAdapter(
        'twilio',
        { baseUrl: need(s.baseUrl), from: address, domesticCountryCode },
        { username: need(c.username), password: need(c.password) },
        own,
      );
  }
}
