import { Button, ListGroup } from 'react-bootstrap';
import { ui, formatCount } from '@herald/contract';
import type { AddedInput } from '../recipients/use-recipient-parser';

interface AddedInputsProps {
  inputs: readonly AddedInput[];
  disabled: boolean;
  onRemove: (id: number) => void;
}

/**
 * The files and long pastes added to the recipients, each removable with its numbers. One that
 * could not be read stays here with its error, and blocks the submission, until removed.
 */
export function AddedInputs({ inputs, disabled, onRemove }: AddedInputsProps) {
  if (inputs.length === 0) return null;
  return (
    <ListGroup className="mb-2 small" aria-label="Added numbers">
      {inputs.map((input) => (
        <ListGroup.Item
          key={input.id}
          variant={input.error ? 'danger' : undefined}
          className="d-flex flex-wrap align-items-center gap-2 py-1"
        >
          <span className="fw-semibold text-break">{input.source}</span>
          <span className={input.error ? 'text-danger' : 'text-muted'}>
            {input.error ?? `${formatCount(input.keys.length)} numbers`}
          </span>
          <Button
            variant="outline-secondary"
            size="sm"
            className="ms-auto py-0"
            disabled={disabled}
            aria-label={ui.campaigns.removeFile(input.source)}
            onClick={() => onRemove(input.id)}
          >
            Remove
          </Button>
        </ListGroup.Item>
      ))}
    </ListGroup>
  );
}
