import { randomBytes } from 'node:crypto';
import type { DeliveryConfig } from '../../config/config.js';
import type { Log } from '../../jobs/worker-logger.js';
import {
  AdapterDirectory,
  type SenderTarget,
  type StoredDeps,
  type WebhookEndpoint,
} from './providers/adapter-directory.js';
import type { ProviderAdapter } from './providers/provider.js';
import type { BuiltAdapter } from './providers/registry.js';
import { SimulatorAdapter } from './providers/simulator.js';
import { SimulatorServer } from './providers/simulator-server.js';
import { webhookUrl } from './providers/webhook-url.js';

/**
 * `ctx.delivery`: the adapters messages leave through and webhooks arrive by, found by the
 * provider's key (docs/delivery.md, Providers in the database): the built-in simulator
 * ('simulator'), started inside the app on loopback when no external one is configured (the
 * default of a fresh install), the providers an Admin added (from their rows, when the app
 * has a database), and adapters a test registers. Built once per context; `close` stops them.
 */
export interface Delivery {
  /** The built-in simulator's or a registered adapter, by key; an unknown key throws. */
  adapterFor(key: string): ProviderAdapter;
  /** The adapter that sends through a sender of a provider (its row read with the campaign). */
  senderAdapter(target: SenderTarget): ProviderAdapter;
  /** A provider's webhook by its key, or undefined when there is none. */
  endpoint(key: string): Promise<WebhookEndpoint | undefined>;
  /** Whether messages of this kind stay on this machine (the screens say so). */
  simulated(kind: string): boolean;
  /** Signs and verifies the built-in simulator's status webhooks. */
  webhookSecret: string;
  /** The in-process simulator, when SIMULATOR_URL is unset. */
  simulator?: SimulatorServer;
  /**
   * Tells the in-process simulator where this app listens (`http://host:port`), once it does:
   * its status events go to the app's webhook route there. No-op for an external simulator.
   */
  setCallbackBase(baseUrl: string): void;
  /** Adds (or replaces) an adapter by its name, ahead of any stored provider of that key. */
  register(adapter: BuiltAdapter): void;
  /** Forgets what was built for a stored provider, after this instance changed it. */
  forget(key: string): void;
  close(): Promise<void>;
}

export { webhookUrl } from './providers/webhook-url.js';

export async function createDelivery(
  config: DeliveryConfig,
  log: Log,
  stored?: StoredDeps,
): Promise<Delivery> {
  const webhookSecret = config.webhookSecret ?? randomBytes(32).toString('hex');
  const sim = config.simulator;
  let simulator: SimulatorServer | undefined;
  let target = sim.url;
  if (!target) {
    let lastWarning = 0;
    simulator = await SimulatorServer.start({
      ratePerSecond: sim.ratePerSecond,
      failRatio: sim.failRatio,
      readRatio: sim.readRatio,
      delayMs: sim.delayMs,
      secret: webhookSecret,
      onCallbackError(message) {
        // At most one line every 10 s while the app's webhook is unreachable.
        if (Date.now() - lastWarning < 10_000) return;
        lastWarning = Date.now();
        log.warn({ component: 'simulator' }, message);
      },
    });
    target = simulator.url;
  }
  const builtin = new SimulatorAdapter(target, webhookSecret, Math.max(64, config.concurrency * 2));
  const registered = new Map<string, BuiltAdapter>([[builtin.name, builtin]]);
  const directory = stored ? new AdapterDirectory(stored) : undefined;
  const adapterFor = (key: string): ProviderAdapter => {
    const found = registered.get(key);
    if (!found) throw new Error(`Unknown delivery provider: ${key}`);
    return found;
  };
  return {
    adapterFor,
    senderAdapter(t) {
      const own = registered.get(t.key);
      if (own) return own;
      if (!directory) throw new Error(`Unknown delivery provider: ${t.key}`);
      return directory.forSender(t);
    },
    async endpoint(key) {
      const own = registered.get(key);
      if (own) return { adapter: own, callbackToken: own.callbackToken };
      return directory?.endpoint(key);
    },
    simulated: (kind) => kind === 'simulator',
    webhookSecret,
    simulator,
    setCallbackBase(baseUrl) {
      simulator?.setCallbackUrl(webhookUrl(baseUrl, builtin.name));
    },
    register(added) {
      const old = registered.get(added.name);
      registered.set(added.name, added);
      if (old !== added) old?.close?.();
    },
    forget: (key) => directory?.forget(key),
    async close() {
      for (const a of registered.values()) a.close?.();
      directory?.close();
      await simulator?.close();
    },
  };
}
