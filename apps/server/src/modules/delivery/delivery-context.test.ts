import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/config.js';
import { startDeliveryApp, type DeliveryTestApp } from '../../../test/delivery-harness.js';
import { createDelivery, webhookUrl } from './delivery-context.js';
import { waitFor } from './providers/simulator-test-kit.js';

/** ctx.delivery: the in-process simulator by default, an external one by SIMULATOR_URL. */

const silent = { error() {}, warn() {}, info() {}, debug() {} };

describe('createDelivery', () => {
  it('starts an in-process simulator when SIMULATOR_URL is unset and sends to it', async () => {
    const config = loadConfig({ SIMULATOR_RATE: '50', SIMULATOR_DELAY_MS: '5' }).delivery;
    const delivery = await createDelivery(config, silent);
    try {
      expect(delivery.simulator).toBeDefined();
      expect(delivery.webhookSecret).toMatch(/^[0-9a-f]{64}$/);
      expect(delivery.simulated('simulator')).toBe(true);
      expect(() => delivery.adapterFor('nope')).toThrow('Unknown delivery provider: nope');
      expect(delivery.simulated('nope')).toBe(false);
      const sent = await delivery.adapterFor('simulator').send({
        reference: 'c1:15550001',
        campaignId: 'c1',
        to: '15550001',
        creditType: 'Normal Message - domestic',
        message: 'hello',
        media: [],
        cta: null,
      });
      expect(sent.providerMessageId).toMatch(/^sim-/);
      expect(delivery.simulator?.stats().accepted).toBe(1);
    } finally {
      await delivery.close();
    }
  });

  it('uses the configured secret and an external simulator, starting none', async () => {
    const config = loadConfig({
      SIMULATOR_URL: 'http://127.0.0.1:9',
      DELIVERY_WEBHOOK_SECRET: 'a-configured-secret-123',
    }).delivery;
    const delivery = await createDelivery(config, silent);
    expect(delivery.simulator).toBeUndefined();
    expect(delivery.webhookSecret).toBe('a-configured-secret-123');
    delivery.setCallbackBase('http://127.0.0.1:1');
    await delivery.close();
  });

  it('builds the webhook URL of a provider under a base URL', () => {
    expect(webhookUrl('http://127.0.0.1:80/', 'simulator')).toBe(
      'http://127.0.0.1:80/api/delivery/webhooks/simulator',
    );
  });
});

describe('startDeliveryApp', () => {
  let t: DeliveryTestApp;
  beforeAll(async () => {
    t = await startDeliveryApp({ simulator: { ratePerSecond: 200 } });
  });
  afterAll(() => t.close());

  it('listens on loopback and points the app at the test simulator', async () => {
    const res = await fetch(`${t.baseUrl}/api/session`);
    expect(res.status).toBe(401);
    expect(t.app.ctx.delivery.simulator).toBeUndefined();
    expect(t.app.ctx.delivery.webhookSecret).toBe(t.webhookSecret);
    await t.app.ctx.delivery.adapterFor('simulator').send({
      reference: 'c2:15550002',
      campaignId: 'c2',
      to: '15550002',
      creditType: 'Normal Message - domestic',
      message: 'hi',
      media: [],
      cta: null,
    });
    expect(t.simulator.stats().accepted).toBe(1);
  });

  it("delivers the simulator's signed status events to the app's webhook route", async () => {
    await t.app.ctx.delivery.adapterFor('simulator').send({
      reference: `${randomUUID()}:15550003`,
      campaignId: 'none',
      to: '15550003',
      creditType: 'Normal Message - domestic',
      message: 'hi',
      media: [],
      cta: null,
    });
    // The app answers 2xx only for a verified body it wrote (the row is unknown: nothing moves).
    await waitFor(() => t.simulator.stats().eventsPending === 0);
    const { accepted, eventsDelivered } = t.simulator.stats();
    expect(eventsDelivered).toBe(2 * accepted); // sent + delivered of every message
  });
});
