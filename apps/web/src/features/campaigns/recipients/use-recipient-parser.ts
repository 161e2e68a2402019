/**
 * The Create Campaign form's recipients, parsed in a Web Worker so the main thread never
 * blocks. The Numbers box is parsed as it changes (debounced, only the latest text counts);
 * files and long pastes are added to the list at once. Recipients stay sorted Float64Arrays of
 * keys (the contract's recipient-keys.ts); no string per number is ever made: the form writes
 * the keys' digits as bytes when it submits (encodeRecipients).
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ui } from '@herald/contract';
import { encodeInSlices } from './encode-text';
import { LatestParse, type LiveResult } from './latest-parse';
import type { ParseKind, ParseReply, ParseRequest } from './parse-buffer';
import { mergeKeys } from './keys';
import { addScan, listOf, type ParsedRecipients, type RecipientScan } from './recipient-list';

export type { ParsedRecipients } from './recipient-list';

export class RecipientParseError extends Error {}

const NONE = new Float64Array(0);

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

/** One input parsed on its own. Text is encoded in slices first, so no task blocks the page. */
export async function scanRecipients(input: string | File): Promise<RecipientScan> {
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
  return reply;
}

/**
 * An input parsed and merged into `existing` (deduplicated against the recipients already there).
 */
export async function parseRecipients(
  input: string | File,
  existing: Float64Array = new Float64Array(0),
): Promise<ParsedRecipients> {
  return addScan(existing, await scanRecipients(input));
}

/** The figures of the last input, under the name the form shows for it. */
export interface LastInput {
  source: string;
  figures: ParsedRecipients;
}

/**
 * One input added at once (a file or a long paste), kept apart so it can be removed with its
 * numbers. A file that could not be read stays listed with its error until removed.
 */
export interface AddedInput {
  id: number;
  source: string;
  keys: Float64Array;
  error: string | null;
}

/** The union of the inputs' keys. */
export function unionOf(inputs: readonly AddedInput[]): Float64Array {
  let all: Float64Array = NONE;
  for (const input of inputs) if (input.keys.length) all = mergeKeys(all, input.keys).keys;
  return all;
}

let nextInputId = 1;

/** The label of the Numbers box's own figures. */
export const TYPED_SOURCE = 'Typed numbers';

const messageOf = (e: unknown) =>
  e instanceof RecipientParseError ? e.message : ui.campaigns.fileUnreadable;

/** The form's recipients: the Numbers box (live), inputs added at once, their union and figures. */
export function useRecipientParser() {
  const [text, setTextState] = useState('');
  const [added, setAdded] = useState<Float64Array>(NONE);
  const [inputs, setInputs] = useState<AddedInput[]>([]);
  const inputsRef = useRef(inputs);
  const [typed, setTyped] = useState<RecipientScan | null>(null);
  const [lastAdded, setLastAdded] = useState<LastInput | null>(null);
  const [typedIsLast, setTypedIsLast] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // The async paths (a file finishing, a submit settling) read these, never a stale render's.
  const addedRef = useRef(added);
  const typedRef = useRef(typed);

  const [live] = useState(
    () =>
      new LatestParse<string, RecipientScan>(scanRecipients, (result) => {
        const scan = result.ok ? result.value : null;
        typedRef.current = scan;
        setTyped(scan);
        setTypedIsLast(result.ok);
        setError(result.ok ? null : messageOf(result.error));
      }),
  );
  useEffect(() => () => live.cancel(), [live]);

  const setText = useCallback(
    (next: string) => {
      setTextState(next);
      if (next.trim()) {
        live.update(next);
        return;
      }
      live.cancel();
      typedRef.current = null;
      setTyped(null);
      setTypedIsLast(false);
    },
    [live],
  );

  /** Takes an added input and its numbers back out (a number also in another input stays). */
  const remove = useCallback((id: number) => {
    const gone = inputsRef.current.find((i) => i.id === id);
    if (!gone) return;
    inputsRef.current = inputsRef.current.filter((i) => i.id !== id);
    setInputs(inputsRef.current);
    if (gone.keys.length === 0) return;
    addedRef.current = unionOf(inputsRef.current);
    setAdded(addedRef.current);
    // The last input's figures were counted against a list that changed: the box's own figures
    // show again (recounted against what is left), if it holds numbers.
    setLastAdded(null);
    setTypedIsLast(typedRef.current !== null);
  }, []);

  /** A file or a long paste, added to the list at once; null when it could not be parsed. */
  const add = useCallback(
    async (input: string | File, source: string): Promise<ParsedRecipients | null> => {
      setBusy(true);
      setError(null);
      const keepInput = (entry: AddedInput) => {
        inputsRef.current = [...inputsRef.current, entry];
        setInputs(inputsRef.current);
      };
      try {
        const scan = await scanRecipients(input);
        const typedNow = typedRef.current;
        // Counted against the whole list the form shows; kept apart from the box's numbers.
        const figures = addScan(listOf(addedRef.current, typedNow), scan);
        const next = typedNow ? addScan(addedRef.current, scan).keys : figures.keys;
        addedRef.current = next;
        setAdded(next);
        keepInput({ id: nextInputId++, source, keys: scan.keys, error: null });
        setLastAdded({ source, figures });
        setTypedIsLast(false);
        return figures;
      } catch (e) {
        keepInput({ id: nextInputId++, source, keys: NONE, error: messageOf(e) });
        return null;
      } finally {
        setBusy(false);
      }
    },
    [],
  );

  /** The whole list once the box's latest text is parsed; null when that text could not be. */
  const settle = useCallback(async (): Promise<Float64Array | null> => {
    const result: LiveResult<RecipientScan> | undefined = await live.settle();
    if (result && !result.ok) return null;
    return listOf(addedRef.current, result ? result.value : null);
  }, [live]);

  const clear = useCallback(() => {
    live.cancel();
    addedRef.current = NONE;
    inputsRef.current = [];
    setInputs([]);
    typedRef.current = null;
    setTextState('');
    setAdded(NONE);
    setTyped(null);
    setLastAdded(null);
    setTypedIsLast(false);
    setError(null);
  }, [live]);

  const typedFigures = useMemo(() => (typed ? addScan(added, typed) : null), [added, typed]);
  const recipients = typedFigures?.keys ?? added;
  const last: LastInput | null =
    typedIsLast && typedFigures ? { source: TYPED_SOURCE, figures: typedFigures } : lastAdded;

  return {
    text,
    setText,
    recipients,
    count: recipients.length,
    last,
    inputs,
    remove,
    busy,
    error,
    add,
    settle,
    clear,
  };
}
