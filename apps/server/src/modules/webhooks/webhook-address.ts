import { lookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Where a customer's webhook may be sent (docs/api.md, Webhooks, SSRF rule): only to public
 * unicast addresses. ipaddr.js classifies them; anything it does not call `unicast`
 * (loopback, RFC 1918, CGNAT 100.64/10, link-local and the 169.254.169.254 metadata address,
 * unique-local fc00::/7, multicast, unspecified, reserved, and the same inside IPv4-mapped IPv6)
 * is refused. The host is resolved at save time and again at every send; the call then connects
 * to the address that was checked (pinnedLookup), so a DNS answer that changes between the
 * check and the connection cannot redirect it.
 */

/** Whether an address may be called; IPv4-mapped IPv6 is judged as its IPv4 address. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === 'unicast';
}

export type ResolveResult =
  { ok: true; address: string; family: 4 | 6 } | { ok: false; reason: 'unresolvable' | 'private' };

/**
 * Resolves a URL's host and picks the address to connect to. Every address the name resolves to
 * must be public (unless `allowPrivate`), so a name cannot mix a public and a private answer.
 */
export async function resolveWebhookHost(
  url: string,
  allowPrivate: boolean,
): Promise<ResolveResult> {
  const host = new URL(url).hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: { address: string; family: number }[];
  if (isIP(host)) {
    addresses = [{ address: host, family: isIP(host) }];
  } else {
    try {
      addresses = await lookup(host, { all: true, verbatim: true });
    } catch {
      return { ok: false, reason: 'unresolvable' };
    }
  }
  const first = addresses[0];
  if (!first) return { ok: false, reason: 'unresolvable' };
  if (!allowPrivate && !addresses.every((a) => isPublicAddress(a.address))) {
    return { ok: false, reason: 'private' };
  }
  return { ok: true, address: first.address, family: first.family === 6 ? 6 : 4 };
}

/** A socket lookup that answers the checked address, whatever the name resolves to now. */
export function pinnedLookup(address: string, family: 4 | 6): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
}
