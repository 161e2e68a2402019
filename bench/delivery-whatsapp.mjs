// The delivery bench's sustained rate against the WhatsApp Cloud API fake as its own process
// (apps/server/src/whatsapp-fake-main.ts), so the app's CPU is measured apart from the
// provider's. The app is connected to it as an Admin connects a WhatsApp number, through the
// API: a `whatsapp_cloud` provider with the fake's URL and credentials, a sender whose address is
// the phone number id at the cap's rate, and the bench's credit type routed to it. The fake posts
// `sent` and `delivered` of each accepted message to the callback URL the provider's answer
// names (on the app's PUBLIC_URL), signed with the app secret. Afterwards the route goes back to
// the default sender (the simulator) for the figures that follow.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { sustained } from './delivery-measure.mjs';
import { CREDIT_TYPE, api } from './delivery-setup.mjs';
import { freePort, outRoot, root, startNode, waitReady } from './lib.mjs';

const API_VERSION = 'v21.0';
/** A phone number id of Meta's shape (digits); the fake answers only under it. */
const PHONE_NUMBER_ID = '106540352242922';
const STATS_PATH = '/_fake/stats';

/** Picks the fake's port and credentials, and connects the app to it through the Admin's API. */
async function connect(stack, cap) {
  const port = await freePort();
  const wa = {
    url: `http://127.0.0.1:${port}`,
    port,
    accessToken: `EAA${randomBytes(24).toString('base64url')}`,
    appSecret: randomBytes(24).toString('hex'),
    verifyToken: randomBytes(12).toString('hex'),
  };
  const provider = await api(stack, 'admin', 'POST', '/api/delivery/providers', {
    kind: 'whatsapp_cloud',
    name: 'Bench WhatsApp fake',
    settings: { baseUrl: wa.url, apiVersion: API_VERSION },
    secrets: {
      accessToken: wa.accessToken,
      appSecret: wa.appSecret,
      verifyToken: wa.verifyToken,
    },
  });
  const sender = await api(stack, 'admin', 'POST', '/api/delivery/senders', {
    providerId: provider.id,
    name: 'Bench WhatsApp number',
    address: PHONE_NUMBER_ID,
    ratePerSecond: cap,
    dailyLimit: null,
  });
  await api(stack, 'admin', 'PUT', '/api/delivery/routes', {
    routes: [{ creditType: CREDIT_TYPE, senderId: sender.id }],
  });
  return { ...wa, providerId: provider.id, senderId: sender.id, callbackUrl: provider.callbackUrl };
}

/** The fake with cap `rate`, posting statuses to `wa.callbackUrl`. Built entry, else tsx. */
async function startFake(wa, rate) {
  const dist = path.join(root, 'apps/server/dist/whatsapp-fake-main.js');
  const built = existsSync(dist);
  const args = built ? [dist] : ['--import', 'tsx', 'apps/server/src/whatsapp-fake-main.ts'];
  const proc = startNode(args, {
    logFile: path.join(outRoot, `delivery-whatsapp-fake-${rate}.log`),
    graceMs: 5000,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      WA_FAKE_PORT: String(wa.port),
      WA_FAKE_RATE: String(rate),
      WA_FAKE_API_VERSION: API_VERSION,
      WA_FAKE_PHONE_NUMBER_ID: PHONE_NUMBER_ID,
      WA_FAKE_ACCESS_TOKEN: wa.accessToken,
      WA_FAKE_APP_SECRET: wa.appSecret,
      WA_FAKE_CALLBACK_URL: wa.callbackUrl,
    },
  });
  await waitReady(`${wa.url}${STATS_PATH}`, proc, 60_000);
  return { ...proc, entry: built ? 'dist/whatsapp-fake-main.js' : 'src (tsx)' };
}

/** The fake's counters, shaped as the shared figures read a provider's. */
async function fakeStats(wa) {
  const res = await fetch(`${wa.url}${STATS_PATH}`);
  if (!res.ok) throw new Error(`WhatsApp fake GET ${STATS_PATH}: ${res.status}`);
  const s = await res.json();
  return { ...s, rejected: s.refused - s.throttled, events: s.statusesPosted };
}

/**
 * The sustained figure against the WhatsApp fake (delivery-measure.mjs), numbers from `from`;
 * with the fake's own counts of the window's status webhooks.
 */
export async function sustainedWhatsApp(stack, pgPid, from, log) {
  let wa;
  let fake;
  const provider = {
    label: 'WhatsApp fake',
    pid: () => fake.child.pid,
    stats: () => fakeStats(wa),
    async prepare(cap) {
      wa = await connect(stack, cap);
      fake = await startFake(wa, cap);
      return `POST /api/delivery/senders (ratePerSecond ${cap}), ${fake.entry}; statuses to ${new URL(wa.callbackUrl).pathname.replace(/[^/]+$/, '[token]')}`;
    },
  };
  try {
    const r = await sustained(stack, pgPid, provider, from, log);
    const s = await fakeStats(wa);
    log(
      `sustained (WhatsApp fake): status webhooks over the run ${s.statusWebhooks} (${s.statusWebhooksFailed} refused), ${s.statusesPosted} statuses absorbed, ${s.statusesPending} pending at the end`,
    );
    return { ...r, fake: s };
  } finally {
    await fake?.stop();
    if (wa) {
      await api(stack, 'admin', 'PUT', '/api/delivery/routes', {
        routes: [{ creditType: CREDIT_TYPE, senderId: null }],
      });
    }
  }
}
