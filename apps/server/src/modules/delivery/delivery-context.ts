import { randomBytes } from 'node:crypto';
import type { DeliveryConfig } from '../../config/config.js';
import type { Log } from '../../jobs/worker-logger.js';
import type { ProviderAdapter } from './providers/provider.js';
import { SimulatorAdapter } from './providers/simulator.js';
import { SimulatorServer } from './providers/simulator-server.js';
import { webhookUrl } from './providers/webhook-url.js';

/**
 * `ctx.delivery`: the provider adapters by `senders.provider` name, the webhook
 * secret, and, when no external simulator is configured, the simulator started inside the app
 * on loopback (the default of a fresh install). Built once per context; `close` stops it.
 */
export interface Delivery {
  /** The adapter of a sender's provider; an unknown provider throws. */
  adapterFor(provider: string): ProviderAdapter;
  /** Whether messages of this provider stay on this machine (the screens say so); never throws. */
  simulated(provider: string): boolean;
  /** Signs and verifies the providers' status webhooks. */
  webhookSecret: string;
  /** The in-process simulator, when SIMULATOR_URL is unset. */
  simulator?: SimulatorServer;
  /**
   * Tells the in-process simulator where this app listens (`http://host:port`), once it does:
   * its status events go to the app's webhook route there. No-op for an external simulator.
   */
  setCallbackBase(baseUrl: string): void;
  /**
   * Adds (or replaces) the adapter of a provider, by its name: how configured providers
   * (providers/registry.ts) join the simulator. Closed with the rest.
   */
  register(adapter: ProviderAdapter & { close?(): void }): void;
  close(): Promise<void>;
}

export { webhookUrl } from './providers/webhook-url.js';

export async function createDelivery(config: DeliveryConfig, log: Log): Promise<Delivery> {
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
  const adapter = new SimulatorAdapter(target, webhookSecret, Math.max(64, config.concurrency * 2));
  const adapters = new Map<string, ProviderAdapter & { close?(): void }>([[adapter.name, adapter]]);
  const adapterFor = (provider: string): ProviderAdapter => {
    const found = adapters.get(provider);
    if (!found) throw new Error(`Unknown delivery provider: ${provider}`);
    return found;
  };
  return {
    adapterFor,
    // A provider with no adapter sends nothing at all, so nothing of it is simulated either.
    simulated: (provider) => adapters.get(provider)?.simulated ?? false,
    webhookSecret,
    simulator,
    setCallbackBase(baseUrl) {
      simulator?.setCallbackUrl(webhookUrl(baseUrl, adapter.name));
    },
    register(added) {
      const old = adapters.get(added.name);
      adapters.set(added.name, added);
      if (old !== added) old?.close?.();
    },
    async close() {
      for (const a of adapters.values()) a.close?.();
      await simulator?.close();
    },
  };
}
