import { Col, Row } from 'react-bootstrap';
import { DP_MAX_PX, DP_MIN_PX, MAX_CAMPAIGN_IMAGES } from '@herald/contract';
import type { FieldErrors } from '../../../components/field-errors';
import { TextField } from '../../../components/form-field';
import type { CampaignFiles, CampaignFormValues, TypeFeatures } from './create-form-logic';
import { limitMb, type MediaField } from './file-rules';
import { MediaFileInput } from './media-file-input';

interface MediaFieldsProps {
  features: TypeFeatures;
  values: CampaignFormValues;
  files: CampaignFiles;
  errors: FieldErrors;
  disabled: boolean;
  onValues: (patch: Partial<CampaignFormValues>) => void;
  onFiles: (patch: Partial<CampaignFiles>) => void;
  /** The refused choice per picker (blocks submitting until removed). */
  rejected: Partial<Record<MediaField, string>>;
  onRejected: (field: MediaField, error: string | null) => void;
  /** Sent as a WhatsApp template: only the DP picker (the sender's profile picture). */
  dpOnly?: boolean;
}

const one = (file: File | null): File[] => (file ? [file] : []);

/**
 * The inputs that depend on the credit type: a DP for DP types; for CTA
 * types one single creative and the two buttons; otherwise images, video, pdf and audio. A
 * campaign sent as a template carries none of these but the DP (`dpOnly`); what was picked
 * stays in the form for when "No template" is chosen again.
 */
export function MediaFields(props: MediaFieldsProps) {
  const { features, values, files, errors, disabled, onValues, onFiles, rejected } = props;
  // Every picker reports its files and, when it refused them, why.
  const picked =
    (field: MediaField, patch: (f: File[]) => Partial<CampaignFiles>) =>
    (f: File[], error: string | null) => {
      onFiles(patch(f));
      props.onRejected(field, error);
    };
  return (
    <fieldset className="border rounded p-3 mb-3">
      <legend className="fs-6 fw-semibold float-none w-auto px-1 mb-0">
        {features.cta && !props.dpOnly ? 'Media and Buttons' : 'Media'}
      </legend>
      {features.dp && (
        <MediaFileInput
          field="dp"
          label="DP Image"
          value={one(files.dp)}
          disabled={disabled}
          hint={`PNG or JPEG, ${DP_MIN_PX}x${DP_MIN_PX} to ${DP_MAX_PX}x${DP_MAX_PX} pixels, max ${limitMb('dp')} MB.`}
          error={rejected.dp}
          onChange={picked('dp', (f) => ({ dp: f[0] ?? null }))}
        />
      )}
      {props.dpOnly ? null : features.cta ? (
        <>
          <MediaFileInput
            field="singleCreative"
            label="Single Creative"
            value={one(files.singleCreative)}
            disabled={disabled}
            hint={`An image, an mp4 video or a pdf, max ${limitMb('singleCreative')} MB.`}
            error={rejected.singleCreative}
            onChange={picked('singleCreative', (f) => ({ singleCreative: f[0] ?? null }))}
          />
          <Row>
            <Col md={6}>
              <TextField
                controlId="campaign-cta-call-text"
                label="Call Button Text"
                value={values.ctaCallText}
                error={errors.ctaCallText}
                disabled={disabled}
                onChange={(ctaCallText) => onValues({ ctaCallText })}
              />
            </Col>
            <Col md={6}>
              <TextField
                controlId="campaign-cta-call"
                label="Call Number"
                type="tel"
                value={values.ctaCall}
                error={errors.ctaCall}
                disabled={disabled}
                onChange={(ctaCall) => onValues({ ctaCall })}
              />
            </Col>
            <Col md={6}>
              <TextField
                controlId="campaign-cta-url-text"
                label="URL Button Text"
                value={values.ctaURLText}
                error={errors.ctaURLText}
                disabled={disabled}
                onChange={(ctaURLText) => onValues({ ctaURLText })}
              />
            </Col>
            <Col md={6}>
              <TextField
                controlId="campaign-cta-url"
                label="URL Link"
                type="url"
                placeholder="https://"
                value={values.ctaURL}
                error={errors.ctaURL}
                disabled={disabled}
                onChange={(ctaURL) => onValues({ ctaURL })}
              />
            </Col>
          </Row>
        </>
      ) : (
        <Row>
          <Col md={6}>
            <MediaFileInput
              field="images"
              label={`Images (up to ${MAX_CAMPAIGN_IMAGES})`}
              multiple
              value={files.images}
              disabled={disabled}
              hint={`Up to ${MAX_CAMPAIGN_IMAGES} images, max ${limitMb('images')} MB each.`}
              error={rejected.images}
              onChange={picked('images', (images) => ({ images }))}
            />
          </Col>
          <Col md={6}>
            <MediaFileInput
              field="video"
              label="Video (mp4)"
              value={one(files.video)}
              disabled={disabled}
              error={rejected.video}
              onChange={picked('video', (f) => ({ video: f[0] ?? null }))}
            />
          </Col>
          <Col md={6}>
            <MediaFileInput
              field="pdf"
              label="PDF"
              value={one(files.pdf)}
              disabled={disabled}
              error={rejected.pdf}
              onChange={picked('pdf', (f) => ({ pdf: f[0] ?? null }))}
            />
          </Col>
          <Col md={6}>
            <MediaFileInput
              field="audio"
              label="Audio"
              value={one(files.audio)}
              disabled={disabled}
              error={rejected.audio}
              onChange={picked('audio', (f) => ({ audio: f[0] ?? null }))}
            />
          </Col>
        </Row>
      )}
    </fieldset>
  );
}
