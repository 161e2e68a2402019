import { useRef, useState, type ClipboardEvent, type ReactNode } from 'react';
import { Alert, Badge, Button, Form, Spinner } from 'react-bootstrap';
import { ui, formatCount } from '@herald/contract';
import type { AddedInput, LastInput, ParsedRecipients } from '../recipients/use-recipient-parser';
import { AddedInputs } from './added-inputs';
import { InvalidEntries } from './invalid-entries';

/** Pastes longer than this skip the box and go straight to the parser (a 14 MB paste would freeze it). */
export const LARGE_PASTE_CHARS = 20_000;

export interface RecipientsState {
  count: number;
  last: LastInput | null;
  /** Files and long pastes, each removable with its numbers. */
  inputs: readonly AddedInput[];
  busy: boolean;
  error: string | null;
}

interface RecipientsFieldProps {
  state: RecipientsState;
  /** What the Numbers box holds; its numbers count as soon as they are parsed. */
  text: string;
  onTextChange: (text: string) => void;
  /** A file or a long paste, added to the list at once under `source`. */
  onAdd: (input: string | File, source: string) => Promise<ParsedRecipients | null>;
  onClear: () => void;
  onRemove: (id: number) => void;
  /** Shown under the total (what the recipients cost). */
  cost: ReactNode;
  error: string | undefined;
  disabled: boolean;
}

/**
 * Recipients (docs/product.md, How numbers are read): numbers typed or pasted in the box count as
 * they change, with no button to press; a .csv/.xlsx/.xls file is added when chosen. All are
 * parsed in a Worker and kept as keys; the box only ever holds what the user typed, never a
 * long pasted list.
 */
export function RecipientsField(props: RecipientsFieldProps) {
  const { state, text, onTextChange, onAdd, onClear, disabled } = props;
  const fileRef = useRef<HTMLInputElement>(null);
  const [reading, setReading] = useState<string | null>(null);
  const locked = disabled || state.busy;

  async function addFile(file: File | undefined) {
    if (!file) return;
    setReading(file.name);
    await onAdd(file, file.name);
    setReading(null);
    if (fileRef.current) fileRef.current.value = '';
  }

  function paste(e: ClipboardEvent<HTMLTextAreaElement>) {
    const pasted = e.clipboardData.getData('text');
    if (pasted.length <= LARGE_PASTE_CHARS) return;
    e.preventDefault();
    setReading('pasted numbers');
    void onAdd(pasted, 'Pasted numbers').then(() => setReading(null));
  }

  const error = state.error ?? props.error;
  return (
    <fieldset className="border rounded p-3 mb-3">
      <legend className="fs-6 fw-semibold float-none w-auto px-1 mb-0">Recipients</legend>
      <Form.Group className="mb-2" controlId="campaign-numbers">
        <Form.Label>Numbers</Form.Label>
        <Form.Control
          as="textarea"
          rows={3}
          placeholder="Type or paste numbers: one a line, or separated by commas or semicolons"
          value={text}
          disabled={locked}
          isInvalid={!!props.error && !state.error}
          onChange={(e) => onTextChange(e.target.value)}
          onPaste={paste}
        />
        <Form.Text muted>
          Numbers are counted as you type; long pasted lists are added at once. Spaces, dashes, dots
          and brackets inside a number are fine (+91 98765 43210); numbers keep 7 to 15 digits;
          duplicates are removed.
        </Form.Text>
      </Form.Group>
      <div className="mb-3">
        <Button
          variant="outline-secondary"
          size="sm"
          disabled={locked || (state.count === 0 && !text)}
          onClick={onClear}
        >
          Clear
        </Button>
      </div>
      <Form.Group className="mb-3" controlId="campaign-recipients-file">
        <Form.Label>Upload Numbers File</Form.Label>
        <Form.Control
          ref={fileRef}
          type="file"
          accept=".csv,.xlsx,.xls"
          disabled={locked}
          onChange={(e) => void addFile((e.target as HTMLInputElement).files?.[0])}
        />
        <Form.Text muted>.csv, .xlsx or .xls; only cells holding a number are read.</Form.Text>
      </Form.Group>
      <AddedInputs inputs={state.inputs} disabled={locked} onRemove={props.onRemove} />
      {state.busy && (
        <div className="d-flex align-items-center gap-2 mb-2 text-primary" role="status">
          <Spinner size="sm" aria-hidden="true" />
          <span>{`Reading ${reading ?? 'numbers'}…`}</span>
        </div>
      )}
      {error && (
        <Alert variant="danger" className="py-2 mb-2">
          {error}
        </Alert>
      )}
      <RecipientCounts count={state.count} last={state.last} cost={props.cost} />
    </fieldset>
  );
}

function RecipientCounts(props: { count: number; last: LastInput | null; cost: ReactNode }) {
  const { count, last } = props;
  return (
    <>
      <div aria-live="polite">
        {last && (
          <div className="d-flex flex-wrap gap-2 mb-1 small" data-testid="recipient-counts">
            <span className="text-muted">{`${last.source}:`}</span>
            <Badge bg="success">{`Kept: ${formatCount(last.figures.kept)}`}</Badge>
            <Badge
              bg="warning"
              text="dark"
            >{`Invalid: ${formatCount(last.figures.invalid)}`}</Badge>
            <Badge bg="light" text="dark" className="border">
              {`${ui.campaigns.recipientsIgnored}: ${formatCount(last.figures.ignored)}`}
            </Badge>
            <Badge bg="secondary">{`Duplicates: ${formatCount(last.figures.duplicates)}`}</Badge>
          </div>
        )}
        <div className="fw-semibold">{`Total recipients: ${formatCount(count)}`}</div>
        {props.cost}
      </div>
      {/* Outside the live region: a hundred entries are read, not announced at each change. */}
      {last && (
        <div className="mt-2">
          <InvalidEntries
            entries={last.figures.invalidEntries}
            digits={last.figures.invalidDigits}
          />
        </div>
      )}
    </>
  );
}
