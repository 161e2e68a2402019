import { LIVE_PATH, liveEventKind, type LiveEventKind } from '@herald/contract';
import { notifyUnauthorized } from '../../lib/api-client';
import { getSession } from '../../lib/auth-store';

/** Reconnection waits: doubling from 1 s up to 30 s, back to 1 s once a stream opens. */
const RETRY_MIN_MS = 1000;
const RETRY_MAX_MS = 30_000;

/**
 * Splits Server-Sent Events text into its `alert` events' kinds; `rest` is an unfinished
 * frame to prepend to the next chunk. Comments (heartbeats) and unknown events are skipped.
 */
export function parseLiveFrames(text: string): { kinds: LiveEventKind[]; rest: string } {
  const normalised = text.replace(/\r\n?/g, '\n');
  const frames = normalised.split('\n\n');
  const rest = frames.pop() ?? '';
  const kinds: LiveEventKind[] = [];
  for (const frame of frames) {
    let event = 'message';
    const data: string[] = [];
    for (const line of frame.split('\n')) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
    }
    if (event !== 'alert' || data.length === 0) continue;
    try {
      const kind = liveEventKind(JSON.parse(data.join('\n')));
      if (kind) kinds.push(kind);
    } catch {
      // Not JSON: not ours.
    }
  }
  return { kinds, rest };
}

/**
 * GET /api/live: calls `onEvent` with each change the server announces, until `signal` aborts.
 * A streaming fetch, not EventSource, so the token goes in the Authorization header and never in
 * a URL. A dropped stream reconnects (`onOpen` then tells the caller to reload, as events may
 * have been missed); a 401 ends the session like any call; failures are only logged.
 */
export function subscribeLiveAlerts(
  onEvent: (kind: LiveEventKind) => void,
  onOpen: () => void,
  signal: AbortSignal,
): void {
  let wait = RETRY_MIN_MS;
  const run = async (): Promise<void> => {
    while (!signal.aborted) {
      const token = getSession()?.token;
      if (!token) return;
      try {
        const res = await fetch(LIVE_PATH, {
          headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
          cache: 'no-store',
          signal,
        });
        if (res.status === 401) {
          notifyUnauthorized();
          return;
        }
        if (!res.ok || !res.body) throw new Error(`live alerts: HTTP ${res.status}`);
        wait = RETRY_MIN_MS;
        onOpen();
        const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
        let rest = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          const parsed = parseLiveFrames(rest + value);
          rest = parsed.rest;
          for (const kind of parsed.kinds) onEvent(kind);
        }
      } catch (err) {
        if (signal.aborted) return;
        console.error('Live alerts failed:', err);
      }
      await new Promise((resolve) => setTimeout(resolve, wait));
      wait = Math.min(wait * 2, RETRY_MAX_MS);
    }
  };
  void run();
}
