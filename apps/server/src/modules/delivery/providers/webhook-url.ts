/**
 * Where a provider's callbacks arrive, under an app's public base URL:
 * `/api/delivery/webhooks/<provider>`, with `/<token>` for a provider that signs nothing
 * (status/webhooks.routes.ts checks it).
 */
export function webhookUrl(baseUrl: string, provider: string, token?: string): string {
  const url = `${baseUrl.replace(/\/+$/, '')}/api/delivery/webhooks/${encodeURIComponent(provider)}`;
  return token === undefined ? url : `${url}/${encodeURIComponent(token)}`;
}
