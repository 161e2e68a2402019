import { Button } from 'react-bootstrap';
import { INVALID_ENTRIES_SHOWN, ui } from '@herald/contract';
import { saveFile } from '../../../lib/download';

interface InvalidEntriesProps {
  /** Every invalid entry of the last input, as written. */
  entries: string[];
  /** Each entry's digit count; 0 where the count is not the reason (a fraction in a file). */
  digits: number[];
}

/** One line per entry, so the file opens as a list to fix and paste back. */
export function invalidEntriesText(entries: string[]): string {
  return entries.map((e) => e.replace(/[\r\n]+/g, ' ')).join('\n') + '\n';
}

/**
 * The invalid entries of the last input (docs/product.md, How numbers are read): the first
 * INVALID_ENTRIES_SHOWN on screen with the reason, all of them in a text file the browser
 * makes from what it parsed.
 */
export function InvalidEntries({ entries, digits }: InvalidEntriesProps) {
  if (entries.length === 0) return null;
  const shown = entries.slice(0, INVALID_ENTRIES_SHOWN);
  const download = () =>
    saveFile({
      blob: new Blob([invalidEntriesText(entries)], { type: 'text/plain;charset=utf-8' }),
      filename: ui.campaigns.invalidEntriesFile,
    });
  return (
    <section className="border rounded p-2 mb-2 small" aria-label="Invalid entries">
      <div className="d-flex flex-wrap align-items-center justify-content-between gap-2 mb-1">
        <span className="fw-semibold">
          {ui.campaigns.invalidEntriesTitle(shown.length, entries.length)}
        </span>
        <Button variant="outline-secondary" size="sm" onClick={download}>
          {ui.campaigns.invalidEntriesDownload(entries.length)}
        </Button>
      </div>
      <ol className="list-unstyled mb-0 overflow-auto" style={{ maxHeight: '12rem' }}>
        {shown.map((entry, i) => (
          <li key={i} className="d-flex flex-wrap gap-2 border-top py-1">
            <code className="text-break text-body">{entry}</code>
            {(digits[i] ?? 0) > 0 && (
              <span className="text-muted">{ui.campaigns.invalidEntryReason(digits[i] ?? 0)}</span>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}
