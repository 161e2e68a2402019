import { z } from 'zod';
import { SimulatorServer } from './modules/delivery/providers/simulator-server.js';

/**
 * The simulator provider as its own process, so the benchmark measures the app's CPU
 * apart from the provider's. Start the app with SIMULATOR_URL set to the printed URL and the
 * same DELIVERY_WEBHOOK_SECRET. Prints one line, `Simulator running at <url>`, once it listens.
 */

const EnvSchema = z.object({
  SIMULATOR_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  SIMULATOR_HOST: z.string().min(1).default('127.0.0.1'),
  SIMULATOR_RATE: z.coerce.number().int().min(1).max(100000).default(100),
  SIMULATOR_FAIL_RATIO: z.coerce.number().min(0).max(1).default(0.05),
  SIMULATOR_READ_RATIO: z.coerce.number().min(0).max(1).default(0.5),
  SIMULATOR_DELAY_MS: z.coerce.number().int().min(0).max(600000).default(300),
  /** The app's status webhook, e.g. http://127.0.0.1:3000/api/delivery/webhooks/simulator. */
  SIMULATOR_CALLBACK_URL: z
    .string()
    .regex(/^https?:\/\//, 'must be an http:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  DELIVERY_WEBHOOK_SECRET: z.string().min(16, 'must be at least 16 characters'),
});

async function main() {
  const parsed = EnvSchema.safeParse(process.env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  let lastWarning = 0;
  const sim = await SimulatorServer.start({
    port: e.SIMULATOR_PORT,
    host: e.SIMULATOR_HOST,
    ratePerSecond: e.SIMULATOR_RATE,
    failRatio: e.SIMULATOR_FAIL_RATIO,
    readRatio: e.SIMULATOR_READ_RATIO,
    delayMs: e.SIMULATOR_DELAY_MS,
    secret: e.DELIVERY_WEBHOOK_SECRET,
    callbackUrl: e.SIMULATOR_CALLBACK_URL,
    onCallbackError(message) {
      if (Date.now() - lastWarning < 10_000) return;
      lastWarning = Date.now();
      console.error(message);
    },
  });
  const stop = () => {
    void sim.close().finally(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  console.log(`Simulator running at ${sim.url}`);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
