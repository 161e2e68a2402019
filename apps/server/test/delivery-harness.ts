import { createTestApp, type TestApp } from './harness.js';
import { SimulatorServer, webhookUrl } from '../src/modules/delivery/index.js';

/**
 * A test app that really delivers: a simulator of the test's own (rate, delay,
 * ratios overridable) and the app listening on 127.0.0.1 so the simulator's status webhooks
 * reach it. The app is pointed at this simulator as an external one (SIMULATOR_URL), so a
 * `secondInstance()` sends to the same simulator and its rate cap holds for both.
 */

export interface SimulatorOverrides {
  /** Default 1,000 msg/s. */
  ratePerSecond?: number;
  /** Default 0: every message is delivered. */
  failRatio?: number;
  /** Default 0: no read events. */
  readRatio?: number;
  /** Between each status event; default 20 ms. */
  delayMs?: number;
}

export interface DeliveryTestApp extends TestApp {
  /** Where the app listens, e.g. `http://127.0.0.1:43121`. */
  baseUrl: string;
  simulator: SimulatorServer;
  /** The secret the simulator signs its webhooks with (the app's DELIVERY_WEBHOOK_SECRET). */
  webhookSecret: string;
}

export const TEST_WEBHOOK_SECRET = 'test-webhook-secret-0123456789';

export async function startDeliveryApp(
  overrides: {
    simulator?: SimulatorOverrides;
    env?: Record<string, string>;
    /** Collects the app's log lines (debug and up). */
    logs?: string[];
  } = {},
): Promise<DeliveryTestApp> {
  const settings = {
    ratePerSecond: 1000,
    failRatio: 0,
    readRatio: 0,
    delayMs: 20,
    ...overrides.simulator,
  };
  const simulator = await SimulatorServer.start({ ...settings, secret: TEST_WEBHOOK_SECRET });
  let t: TestApp;
  try {
    t = await createTestApp(
      {
        DELIVERY_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
        SIMULATOR_URL: simulator.url,
        SIMULATOR_RATE: String(settings.ratePerSecond),
        SIMULATOR_FAIL_RATIO: String(settings.failRatio),
        SIMULATOR_READ_RATIO: String(settings.readRatio),
        SIMULATOR_DELAY_MS: String(settings.delayMs),
        ...overrides.env,
      },
      overrides.logs,
    );
  } catch (err) {
    await simulator.close();
    throw err;
  }
  try {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
  } catch (err) {
    await simulator.close();
    await t.close();
    throw err;
  }
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('test app has no TCP address');
  const baseUrl = `http://127.0.0.1:${address.port}`;
  t.app.ctx.delivery.setCallbackBase(baseUrl);
  simulator.setCallbackUrl(webhookUrl(baseUrl, 'simulator'));
  const closeApp = t.close.bind(t);
  return Object.assign(t, {
    baseUrl,
    simulator,
    webhookSecret: TEST_WEBHOOK_SECRET,
    async close() {
      // The simulator first: no webhook may land on a closing app.
      await simulator.close();
      await closeApp();
    },
  });
}
