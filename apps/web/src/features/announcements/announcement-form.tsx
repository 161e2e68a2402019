import { useState, type FormEvent } from 'react';
import { Button, Card, Col, Form, Row, Spinner } from 'react-bootstrap';
import { ANNOUNCEMENT_MAX_TARGETS, ui } from '@herald/contract';
import type { FieldErrors } from '../../components/field-errors';
import { SelectField, TextField } from '../../components/form-field';
import { ImageFileField } from '../../components/image-file-field';
import { useCreateAnnouncement } from '../../api/announcements/create-announcement';
import {
  checkAnnouncementForm,
  EMPTY_ANNOUNCEMENT_FORM,
  imageProblem,
  VISIBILITY_OPTIONS,
  type AnnouncementFormValues,
} from './announcement-form-logic';
import { failure, OutcomeAlert, type Outcome } from './outcome-alert';
import { useFocusFirstInvalid } from '../../components/use-focus-first-invalid';

const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

/** The create form of Manage Announcements, checked with the server's schema. */
export function AnnouncementForm() {
  const create = useCreateAnnouncement();
  const [values, setValues] = useState<AnnouncementFormValues>(EMPTY_ANNOUNCEMENT_FORM);
  const [image, setImage] = useState<File | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const focusFirstInvalid = useFocusFirstInvalid();
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  // A new key empties the file input after a successful create.
  const [fileKey, setFileKey] = useState(0);

  const set = (patch: Partial<AnnouncementFormValues>) => setValues((v) => ({ ...v, ...patch }));

  async function submit(e: FormEvent) {
    e.preventDefault();
    const form = e.currentTarget;
    if (create.isPending) return;
    setOutcome(null);
    const checked = checkAnnouncementForm(values, image);
    const imageError = image ? await imageProblem(image) : null;
    if (!checked.ok || imageError) {
      setErrors({
        ...(checked.ok ? {} : checked.errors),
        ...(imageError ? { image: imageError } : {}),
      });
      focusFirstInvalid(form);
      return;
    }
    setErrors({});
    create.mutate(checked.data, {
      onSuccess: () => {
        setValues(EMPTY_ANNOUNCEMENT_FORM);
        setImage(null);
        setFileKey((k) => k + 1);
        setOutcome({ ok: true, text: ui.announcements.created });
      },
      onError: (err) => setOutcome(failure(err, ui.announcements.createFailed)),
    });
  }

  return (
    <Card className="shadow-sm mb-4">
      <Card.Header as="h2" className="h5 mb-0">
        Create Announcement
      </Card.Header>
      <Card.Body>
        {outcome && <OutcomeAlert outcome={outcome} onClose={() => setOutcome(null)} />}
        <Form noValidate onSubmit={(e) => void submit(e)} aria-label="Create Announcement">
          <TextField
            controlId="announcement-title"
            label="Title"
            value={values.title}
            onChange={(title) => set({ title })}
            error={errors.title}
          />
          <TextField
            controlId="announcement-message"
            label="Message"
            rows={4}
            value={values.message}
            onChange={(message) => set({ message })}
            error={errors.message}
          />
          <Row>
            <Col md={8}>
              <TextField
                controlId="announcement-link"
                label="Link (optional)"
                type="url"
                placeholder="https://"
                value={values.link}
                onChange={(link) => set({ link })}
                error={errors.link}
              />
            </Col>
            <Col md={4}>
              <TextField
                controlId="announcement-expiry"
                label="Expiry Date (optional)"
                type="date"
                value={values.expiryDate}
                onChange={(expiryDate) => set({ expiryDate })}
                error={errors.expiryDate}
              />
            </Col>
          </Row>
          <ImageFileField
            key={fileKey}
            controlId="announcement-image"
            label="Image (optional)"
            accept={IMAGE_TYPES}
            currentUrl={null}
            file={image}
            onFileChange={setImage}
            error={errors.image}
          />
          <SelectField
            controlId="announcement-visibility"
            label="Visibility"
            value={values.visibilityType}
            options={VISIBILITY_OPTIONS}
            onChange={(v) => set({ visibilityType: v as AnnouncementFormValues['visibilityType'] })}
            error={errors.visibilityType}
          />
          {values.visibilityType === 'specific' && (
            <TextField
              controlId="announcement-targets"
              label="User emails"
              rows={2}
              hint={`Comma-separated, up to ${ANNOUNCEMENT_MAX_TARGETS}.`}
              value={values.visibilityTargets}
              onChange={(visibilityTargets) => set({ visibilityTargets })}
              error={errors.visibilityTargets}
            />
          )}
          <Button type="submit" disabled={create.isPending}>
            {create.isPending && <Spinner size="sm" className="me-2" aria-hidden="true" />}
            Create Announcement
          </Button>
        </Form>
      </Card.Body>
    </Card>
  );
}
