/**
 * The recipients parser off the main thread. Created by use-recipient-parser.ts with
 * `new Worker(new URL('./parser.worker.ts', import.meta.url), { type: 'module' })`; the input
 * buffer arrives transferred and the keys go back transferred, so nothing is copied.
 */
import { answer, type ParseReply, type ParseRequest } from './parse-buffer';

/** The part of DedicatedWorkerGlobalScope used here (the app's lib is DOM, not WebWorker). */
interface WorkerScope {
  onmessage: ((event: MessageEvent<ParseRequest>) => void) | null;
  postMessage(message: ParseReply, transfer: Transferable[]): void;
}

const scope = self as unknown as WorkerScope;

scope.onmessage = (event) => {
  void answer(event.data).then(({ reply, transfer }) => scope.postMessage(reply, transfer));
};
