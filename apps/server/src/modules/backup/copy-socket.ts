import net from 'node:net';
import pg from 'pg';

/**
 * Own code for issue 13's backup rate target: the backup's own connection, whose socket reads
 * into memory kept for it (node's `onread`) instead of a new 64 KiB buffer per read. V8 counts
 * such buffers against the main thread's heap limits: the 700 MB a 4M-row backup reads set off a
 * full mark-compact every 70-100 ms in some runs (96 in one backup, and half as much CPU again
 * for the whole server, most of it the collector's helper threads). During a COPY the bytes go
 * to the sink the COPY sets (copy-frames.ts copies them out before the next read); otherwise they
 * are handed to node-postgres as a copy of their own, as a socket's `data` would be.
 */

/** The most bytes one read brings. */
const READ_BYTES = 256 * 1024;

export interface CopySocket extends net.Socket {
  /** Takes the bytes of a read, valid only during the call; false stops reading for now. */
  sink: ((bytes: Buffer) => boolean) | null;
}

export function isCopySocket(stream: unknown): stream is CopySocket {
  return stream instanceof net.Socket && 'sink' in stream;
}

function copySocket(): CopySocket {
  const memory = Buffer.allocUnsafeSlow(READ_BYTES);
  const socket = new net.Socket({
    onread: {
      buffer: memory,
      callback: (n) => {
        const bytes = memory.subarray(0, n);
        if (socket.sink) return socket.sink(bytes);
        socket.emit('data', Buffer.from(bytes));
        return true;
      },
    },
  }) as CopySocket;
  socket.sink = null;
  return socket;
}

export interface BackupConnection {
  client: pg.ClientBase;
  /** Ends the connection (or gives it back to the pool; `broken`: destroyed, not reused). */
  release(broken: boolean): Promise<void>;
}

/**
 * A connection of its own, with the pool's settings, on a CopySocket; over TLS (where the socket
 * carries encrypted bytes) a client of the pool instead.
 */
export async function backupConnection(pool: pg.Pool): Promise<BackupConnection> {
  const client = new pg.Client({ ...pool.options, stream: () => copySocket() });
  if ((client as unknown as { connection: { ssl: unknown } }).connection.ssl) {
    const pooled = await pool.connect();
    return { client: pooled, release: async (broken) => pooled.release(broken) };
  }
  // A connection lost between queries fails the next one; unheard, it would end the process.
  client.on('error', () => {});
  await client.connect();
  return { client, release: () => client.end().catch(() => {}) };
}
