import { Alert, Spinner } from 'react-bootstrap';
import { campaignCopyUi as text, type Campaign } from '@herald/contract';
import type { CopiedFrom } from './campaign-copy';
import type { CopyProblem } from './use-campaign-copy';

interface CopyNotesProps {
  copying: Campaign | null;
  problem: CopyProblem | null;
  onDismiss: () => void;
  copiedFrom: CopiedFrom | null;
}

/**
 * Above the form: the campaign being copied, why a copy could not be made, and what the form
 * was filled from (docs/product.md, Campaigns, "Clone and resend").
 */
export function CopyNotes({ copying, problem, onDismiss, copiedFrom }: CopyNotesProps) {
  return (
    <div aria-live="polite">
      {copying && (
        <p className="d-flex align-items-center gap-2 text-primary" role="status">
          <Spinner size="sm" aria-hidden="true" />
          <span>{text.copying(copying.name)}</span>
        </p>
      )}
      {problem && (
        <Alert variant={problem.variant} dismissible onClose={onDismiss} className="py-2">
          {problem.text}
        </Alert>
      )}
      {copiedFrom && !copying && (
        <p
          className="small border-start border-3 border-primary ps-2"
          role="note"
          data-testid="copied-from"
        >
          <strong className="text-break">{text.copied(copiedFrom.name)}</strong>
          {': '}
          {text.copiedParts(copiedFrom.parts)}
        </p>
      )}
    </div>
  );
}
