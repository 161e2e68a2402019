import { describe, expect, it } from 'vitest';
import { parseLiveFrames } from './live-alerts';

describe('parseLiveFrames', () => {
  it('reads alert events, skips comments and keeps an unfinished frame', () => {
    const text =
      'retry: 5000\n: connected\n\n' +
      'event: alert\ndata: {"kind":"notifications"}\n\n' +
      ': keep-alive\n\n' +
      'event: alert\r\ndata: {"kind":"announcements"}\r\n\r\n' +
      'event: alert\ndata: {"kind":"noti';
    const { kinds, rest } = parseLiveFrames(text);
    expect(kinds).toEqual(['notifications', 'announcements']);
    expect(parseLiveFrames(`${rest}fications"}\n\n`).kinds).toEqual(['notifications']);
  });

  it('ignores other events and data that is not a known alert', () => {
    const text =
      'data: {"kind":"notifications"}\n\n' +
      'event: alert\ndata: <script>\n\n' +
      'event: alert\ndata: {"kind":"secrets"}\n\n' +
      'event: alert\ndata: null\n\n' +
      'event: alert\ndata: ["notifications"]\n\n' +
      'event: alert\ndata: {"kind":1}\n\n';
    expect(parseLiveFrames(text).kinds).toEqual([]);
  });
});
