/**
 * Where a provider's callbacks arrive, under an app's public base URL:
 * `/api/delivery/webhooks/<provider>`, with `/<token>` for a provider that signs nothing
 * (status/webhooks.routes.ts checks it).
 */
export function webhookUrl(baseUrl: string, provider: string, token?: string): string {
  const url = `${baseUrl.replace(/\/+$/, '')}/api/delivery/webhooks/${encodeURIComponent(provider)}`;
  return token === undefined ? url : `${url}/${encodeURIComponent(token)}`;
}

const WITH_TOKEN = /^(\/api\/delivery\/webhooks\/[^/?#]+\/)[^/?#]+/;

const VERIFY_TOKEN = /([?&]hub\.verify_token=)[^&#]*/;

/**
 * A path with a webhook's token segment (and WhatsApp's subscription `hub.verify_token`)
 * replaced by `[token]`, for the logs.
 */
export function redactCallbackToken(url: string): string {
  if (!url.startsWith('/api/delivery/webhooks/')) return url;
  return url.replace(WITH_TOKEN, '$1[token]').replace(VERIFY_TOKEN, '$1[token]');
}
