import type { CSSProperties } from 'react';
import type { CampaignFiles, CampaignFormValues, TypeFeatures } from './create-form-logic';
import { LinkIcon, PhoneIcon } from './preview-icons';
import { previewLines } from './preview-text';
import { useObjectUrls } from './use-object-urls';

interface MessagePreviewProps {
  values: CampaignFormValues;
  files: CampaignFiles;
  features: TypeFeatures;
}

const CHAT: CSSProperties = { background: '#efeae2', maxWidth: 360 };
const BUBBLE: CSSProperties = { background: '#fff', borderRadius: '0 8px 8px 8px', maxWidth: 320 };
const MEDIA: CSSProperties = { width: '100%', maxHeight: 200, objectFit: 'cover', borderRadius: 6 };
const BUTTON: CSSProperties = {
  background: '#fff',
  color: '#027eb5',
  borderRadius: 8,
  maxWidth: 320,
};

/** The picture or video at the top of the bubble, and the other files by name. */
function visualsOf(files: CampaignFiles, features: TypeFeatures): { shown: File[]; named: File[] } {
  const all = features.cta
    ? [files.singleCreative]
    : [...files.images, files.video, files.pdf, files.audio];
  const chosen = all.filter((f): f is File => f !== null);
  const visual = (f: File) => f.type.startsWith('image/') || f.type.startsWith('video/');
  return { shown: chosen.filter(visual), named: chosen.filter((f) => !visual(f)) };
}

/**
 * The campaign as a chat app shows it: the DP beside the chat's name for DP types, one bubble
 * with the media, the text (its line breaks kept, links as clickable text) and the buttons
 * under it. Everything is rendered as React text; nothing the user typed becomes HTML.
 */
export function MessagePreview({ values, files, features }: MessagePreviewProps) {
  const { shown, named } = visualsOf(files, features);
  const [dpUrl] = useObjectUrls(features.dp && files.dp ? [files.dp] : []);
  const urls = useObjectUrls(shown);
  const buttons = [
    { icon: <PhoneIcon />, text: values.ctaCallText.trim() },
    { icon: <LinkIcon />, text: values.ctaURLText.trim() },
  ].filter((b) => b.text !== '');
  return (
    <section className="rounded p-2 mx-auto w-100" style={CHAT} aria-label="Message preview">
      {features.dp && (
        <div className="d-flex align-items-center gap-2 mb-2">
          {dpUrl ? (
            <img
              src={dpUrl}
              alt="DP"
              width={36}
              height={36}
              className="rounded-circle"
              style={{ objectFit: 'cover' }}
            />
          ) : (
            <span
              className="rounded-circle bg-secondary d-inline-block"
              style={{ width: 36, height: 36 }}
            />
          )}
          <span className="small fw-semibold">Your business</span>
        </div>
      )}
      <div className="p-2 shadow-sm" style={BUBBLE} data-testid="preview-bubble">
        {shown.map((file, i) =>
          urls[i] === undefined ? null : file.type.startsWith('video/') ? (
            <video
              key={urls[i]}
              src={urls[i]}
              muted
              preload="metadata"
              style={MEDIA}
              className="mb-1"
              aria-label={file.name}
            />
          ) : (
            <img key={urls[i]} src={urls[i]} alt={file.name} style={MEDIA} className="mb-1" />
          ),
        )}
        {named.map((file) => (
          <div key={file.name} className="small border rounded px-2 py-1 mb-1 bg-light text-break">
            {file.name}
          </div>
        ))}
        <div className="text-break" data-testid="preview-text">
          {previewLines(values.message).map((parts, i) => (
            <div key={i} style={{ minHeight: '1.2em', whiteSpace: 'pre-wrap' }}>
              {parts.map((p, j) =>
                'href' in p ? (
                  <a key={j} href={p.href} target="_blank" rel="noopener noreferrer">
                    {p.text}
                  </a>
                ) : (
                  <span key={j}>{p.text}</span>
                ),
              )}
            </div>
          ))}
        </div>
      </div>
      {buttons.map((b) => (
        <div
          key={b.text}
          className="text-center small fw-semibold py-2 mt-1 shadow-sm"
          style={BUTTON}
        >
          <span className="me-1">{b.icon}</span>
          {b.text}
        </div>
      ))}
    </section>
  );
}
