/**
 * Parses pasted text or a chosen file in a Web Worker, so the main thread never blocks, and
 * merges the result into the recipients already on the form (spec 5: deduplicated against
 * existing recipients). Recipients stay a sorted Float64Array of keys (keys.ts); strings are
 * made once, when the form submits (keysToStrings).
 */
import { useCallback, useState } from 'react';
import { MAX_RECIPIENTS, ui } from '@herald/contract';
import { encodeInSlices } from './encode-text';
import { mergeKeys } from './keys';
import type { ParseKind, ParseReply, ParseRequest } from './parse-buffer';

export interface ParsedRecipients {
  /** Every recipient, existing and new: sorted unique keys. */
  keys: Float64Array;
  /** New numbers this input added. */
  kept: number;
  invalid: number;
  /** Repeats within the input plus numbers already present. */
  duplicates: number;
  /** More than MAX_RECIPIENTS in total. */
  overLimit: boolean;
}

export class RecipientParseError extends Error {}

export function kindOf(file: File): ParseKind {
  const name = file.name.toLowerCase();
  if (name.endsWith('.xlsx')) return 'xlsx';
  if (name.endsWith('.xls')) return 'xls';
  if (name.endsWith('.txt')) return 'text';
  return 'csv';
}

type Settle = (reply: ParseReply) => void;
let worker: Worker | undefined;
let nextId = 1;
const pending = new Map<number, Settle>();

function failAll(error: string): void {
  for (const [id, settle] of pending) settle({ id, error });
  pending.clear();
  worker?.terminate();
  worker = undefined;
}

function getWorker(): Worker {
  if (!worker) {
    worker = new Worker(new URL('./parser.worker.ts', import.meta.url), { type: 'module' });
    worker.onmessage = (event: MessageEvent<ParseReply>) => {
      const settle = pending.get(event.data.id);
      pending.delete(event.data.id);
      settle?.(event.data);
    };
    // The worker's script (or a chunk it imports) failed to load.
    worker.onerror = () => failAll(ui.campaigns.parserUnavailable);
  }
  return worker;
}

async function request(message: ParseRequest): Promise<ParseReply> {
  if (typeof Worker === 'undefined') {
    // No Worker (unit tests in Node): the same code, inline.
    const { answer } = await import('./parse-buffer');
    return (await answer(message)).reply;
  }
  return new Promise<ParseReply>((resolve) => {
    pending.set(message.id, resolve);
    getWorker().postMessage(message, 'buffer' in message ? [message.buffer] : []);
  });
}

export async function parseRecipients(
  input: string | File,
  existing: Float64Array = new Float64Array(0),
): Promise<ParsedRecipients> {
  const id = nextId++;
  let message: ParseRequest;
  if (typeof input === 'string') {
    message = { id, kind: 'text', buffer: await encodeInSlices(input) };
  } else {
    try {
      message = { id, kind: kindOf(input), buffer: await input.arrayBuffer() };
    } catch {
      throw new RecipientParseError(ui.campaigns.fileUnreadable);
    }
  }
  const reply = await request(message);
  if ('error' in reply) throw new RecipientParseError(reply.error);
  const merged = mergeKeys(existing, reply.keys);
  return {
    keys: merged.keys,
    kept: reply.kept - merged.duplicates,
    invalid: reply.invalid,
    duplicates: reply.duplicates + merged.duplicates,
    overLimit: merged.keys.length > MAX_RECIPIENTS,
  };
}

/** The form's recipients: add pasted text or files, see the last counts, or an error. */
export function useRecipientParser() {
  const [recipients, setRecipients] = useState<Float64Array>(() => new Float64Array(0));
  const [last, setLast] = useState<ParsedRecipients | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  /** Resolves to the merged result, or null when the input could not be parsed. */
  const add = useCallback(
    async (input: string | File): Promise<ParsedRecipients | null> => {
      setBusy(true);
      setError(null);
      try {
        const parsed = await parseRecipients(input, recipients);
        setRecipients(parsed.keys);
        setLast(parsed);
        return parsed;
      } catch (e) {
        setError(e instanceof RecipientParseError ? e.message : ui.campaigns.fileUnreadable);
        return null;
      } finally {
        setBusy(false);
      }
    },
    [recipients],
  );

  const clear = useCallback(() => {
    setRecipients(new Float64Array(0));
    setLast(null);
    setError(null);
  }, []);

  return { recipients, count: recipients.length, last, busy, error, add, clear };
}
