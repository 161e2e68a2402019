import { useRef, useState } from 'react';
import { Button, Form, Spinner } from 'react-bootstrap';
import { ui } from '@herald/contract';
import { formatBytes } from '../../../lib/format';
import { FileThumbnails } from './file-thumbnails';
import {
  checkMediaFile,
  FIELD_ACCEPT,
  limitMb,
  tooManyImagesError,
  type MediaField,
} from './file-rules';

interface MediaFileInputProps {
  field: MediaField;
  label: string;
  /** The accepted files now on the form (shown under the picker, images as thumbnails). */
  value: readonly File[];
  /** Why the chosen file was refused; it stays shown (and blocks submitting) until removed. */
  error: string | undefined;
  /** A choice checked: the files taken, or none and the reason they were refused. */
  onChange: (files: File[], error: string | null) => void;
  hint?: string;
  multiple?: boolean;
  disabled?: boolean;
}

/**
 * One media picker: each chosen file is checked (size, type by content, DP dimensions) before
 * the form takes it. A refused choice shows the rule's message next to the file the picker still
 * names, until the user removes it or picks another.
 */
export function MediaFileInput(props: MediaFileInputProps) {
  const { field, label, value, error, onChange, multiple = false } = props;
  const inputRef = useRef<HTMLInputElement>(null);
  const [checking, setChecking] = useState(false);
  // The refused choice's names, for its Remove button (the form keeps only accepted files).
  const [refused, setRefused] = useState('');
  const controlId = `campaign-${field}`;

  async function pick(list: FileList | null) {
    const chosen = Array.from(list ?? []);
    if (chosen.length === 0) {
      onChange([], null);
      return;
    }
    setChecking(true);
    let problem = multiple ? tooManyImagesError(chosen.length) : null;
    for (const file of chosen) {
      if (problem) break;
      problem = await checkMediaFile(field, file);
    }
    setChecking(false);
    setRefused(problem ? chosen.map((f) => f.name).join(', ') : '');
    onChange(problem ? [] : chosen, problem);
  }

  function remove() {
    if (inputRef.current) inputRef.current.value = '';
    onChange([], null);
  }

  const hint = props.hint ?? `Max ${limitMb(field)} MB.`;
  const names = error ? refused : value.map((f) => f.name).join(', ');
  return (
    <Form.Group className="mb-3" controlId={controlId}>
      <Form.Label>{label}</Form.Label>
      <Form.Control
        ref={inputRef}
        type="file"
        accept={FIELD_ACCEPT[field]}
        multiple={multiple}
        disabled={props.disabled}
        isInvalid={!!error}
        onChange={(e) => void pick((e.target as HTMLInputElement).files)}
      />
      {checking && (
        <Form.Text className="d-block" muted>
          <Spinner size="sm" className="me-1" aria-hidden="true" />
          Checking file…
        </Form.Text>
      )}
      <Form.Control.Feedback type="invalid">{error}</Form.Control.Feedback>
      {!error && value.length > 0 && (
        <Form.Text className="d-block text-success">
          {value.map((f) => `${f.name} (${formatBytes(f.size)})`).join(', ')}
        </Form.Text>
      )}
      {!error && value.length === 0 && <Form.Text muted>{hint}</Form.Text>}
      {(error || value.length > 0) && (
        <Button
          variant="link"
          size="sm"
          className="p-0 d-block"
          disabled={props.disabled}
          aria-label={ui.campaigns.removeFile(names)}
          onClick={remove}
        >
          Remove
        </Button>
      )}
      <FileThumbnails files={value} />
    </Form.Group>
  );
}
