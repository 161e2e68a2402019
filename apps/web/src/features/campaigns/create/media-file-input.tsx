import { useRef, useState } from 'react';
import { Form, Spinner } from 'react-bootstrap';
import { formatBytes } from '../../../lib/format';
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
  /** The accepted files now on the form (shown under the picker). */
  value: readonly File[];
  onChange: (files: File[]) => void;
  hint?: string;
  multiple?: boolean;
  disabled?: boolean;
}

/**
 * One media picker: each chosen file is checked (size, type by content, DP dimensions) before
 * the form takes it; a refused choice shows the rule's message and leaves the field empty.
 */
export function MediaFileInput(props: MediaFileInputProps) {
  const { field, label, value, onChange, multiple = false } = props;
  const inputRef = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const controlId = `campaign-${field}`;

  async function pick(list: FileList | null) {
    const chosen = Array.from(list ?? []);
    setError(null);
    if (chosen.length === 0) {
      onChange([]);
      return;
    }
    setChecking(true);
    let problem = multiple ? tooManyImagesError(chosen.length) : null;
    for (const file of chosen) {
      if (problem) break;
      problem = await checkMediaFile(field, file);
    }
    setChecking(false);
    if (problem) {
      setError(problem);
      if (inputRef.current) inputRef.current.value = '';
      onChange([]);
      return;
    }
    onChange(chosen);
  }

  const hint = props.hint ?? `Max ${limitMb(field)} MB.`;
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
      {!error && value.length > 0 && (
        <Form.Text className="d-block text-success">
          {value.map((f) => `${f.name} (${formatBytes(f.size)})`).join(', ')}
        </Form.Text>
      )}
      {!error && value.length === 0 && <Form.Text muted>{hint}</Form.Text>}
      <Form.Control.Feedback type="invalid">{error}</Form.Control.Feedback>
    </Form.Group>
  );
}
