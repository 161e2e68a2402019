import { useEffect, useState } from 'react';
import { Form, Image } from 'react-bootstrap';

interface ImageFileFieldProps {
  controlId: string;
  label: string;
  /** MIME types offered by the picker, e.g. ['image/png', 'image/jpeg']. */
  accept: readonly string[];
  /** URL of the image already stored, or null. */
  currentUrl: string | null;
  file: File | null;
  onFileChange: (file: File | null) => void;
  /** When given, offers a checkbox to remove the stored image. */
  removed?: boolean;
  onRemovedChange?: (removed: boolean) => void;
  error?: string | undefined;
  hint?: string;
}

/** File picker for one image with a preview of the chosen file or the stored one. */
export function ImageFileField(props: ImageFileFieldProps) {
  const { controlId, label, file, currentUrl, removed = false, onRemovedChange, error } = props;
  const [chosenUrl, setChosenUrl] = useState<string | null>(null);

  useEffect(() => {
    if (!file) {
      setChosenUrl(null);
      return;
    }
    const url = URL.createObjectURL(file);
    setChosenUrl(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  const preview = chosenUrl ?? (removed ? null : currentUrl);
  return (
    <Form.Group className="mb-3" controlId={controlId}>
      <Form.Label className="d-block">{label}</Form.Label>
      {preview && (
        <div className="mb-2 p-2 border rounded bg-light d-inline-block">
          <Image
            src={preview}
            alt={`${label} preview`}
            style={{ maxHeight: 50, maxWidth: 200 }}
            onError={(e) => {
              e.currentTarget.style.display = 'none';
            }}
          />
        </div>
      )}
      <Form.Control
        type="file"
        accept={props.accept.join(',')}
        isInvalid={!!error}
        onChange={(e) => {
          const input = e.target as HTMLInputElement;
          props.onFileChange(input.files?.[0] ?? null);
        }}
      />
      {props.hint && <Form.Text muted>{props.hint}</Form.Text>}
      <Form.Control.Feedback type="invalid">{error}</Form.Control.Feedback>
      {currentUrl && onRemovedChange && !file && (
        <Form.Check
          className="mt-2"
          id={`${controlId}-remove`}
          label={`Remove current ${label.toLowerCase()}`}
          checked={removed}
          onChange={(e) => onRemovedChange(e.target.checked)}
        />
      )}
    </Form.Group>
  );
}
