// The bench workers' one IPC loop (bench/lib.mjs startWorker talks to it): each message names
// a command and its arguments; the answer carries the result or the error's stack. The worker
// shuts down on SIGTERM, SIGINT or when its parent goes.

export type Commands = Record<string, (args: never) => unknown>;

export function serveCommands(commands: Commands, shutdown: () => Promise<unknown>): void {
  process.on('message', (m: { id: number; cmd: string; args: unknown }) => {
    const fn = commands[m.cmd];
    void (async () => {
      try {
        if (!fn) throw new Error(`unknown command ${m.cmd}`);
        const result = await fn(m.args as never);
        process.send?.({ id: m.id, ok: true, result });
      } catch (err) {
        process.send?.({
          id: m.id,
          ok: false,
          error: err instanceof Error ? (err.stack ?? err.message) : String(err),
        });
      }
    })();
  });
  const stop = () => void shutdown().finally(() => process.exit(0));
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, stop);
  process.on('disconnect', stop);
}
