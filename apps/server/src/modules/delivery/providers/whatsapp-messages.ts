import { server as msg } from '@herald/contract';
import { ProviderSendError, type OutboundMessage } from './provider.js';

/**
 * The JSON bodies of WhatsApp Cloud API sends (`POST /{version}/{phone-number-id}/messages`), as
 * Meta's message reference gives them, built from one OutboundMessage. A message may need more
 * than one request (a second image, audio, which takes no caption): the first is the one the
 * recipient's row tracks, and only it carries the engine's reference back in
 * `biz_opaque_callback_data`.
 */

export type WaBody = {
  messaging_product: 'whatsapp';
  to: string;
  type: 'text' | 'image' | 'video' | 'document' | 'audio' | 'interactive' | 'template';
  biz_opaque_callback_data?: string;
} & Record<string, unknown>;

export interface WaPlan {
  main: WaBody;
  /** Sent after `main`, best effort: their answers do not change the recipient's row. */
  extras: WaBody[];
}

type WaMediaType = 'image' | 'video' | 'document' | 'audio';
export type OutboundFile = OutboundMessage['media'][number];

/** Meta's limits: a caption and an interactive body, a text, a CTA button's label. */
export const WA_LIMITS = { caption: 1024, interactiveBody: 1024, text: 4096, buttonText: 20 };

/** Local refusals (never sent): the engine fails the recipient with the reason. */
export const LOCAL_CODES = { invalid: 'invalid_message' } as const;

const LINK = /\bhttps?:\/\/\S+|\bwww\.\S+/i;

/**
 * The provider's media type of a campaign file; null for the DP (a DP campaign uses the
 * sender's business profile picture, set on the number once, not a per-message image).
 */
export function waMediaType(f: OutboundFile): WaMediaType | null {
  if (f.kind === 'dp') return null;
  if (f.kind === 'audio' || f.mime.startsWith('audio/')) return 'audio';
  if (f.kind === 'video' || f.mime.startsWith('video/')) return 'video';
  if (f.kind === 'pdf' || f.mime === 'application/pdf') return 'document';
  if (f.kind === 'image' || f.mime.startsWith('image/')) return 'image';
  return null;
}

/** The file name a document shows: the stored name's last part. */
const fileName = (f: OutboundFile) => f.key.slice(f.key.lastIndexOf('/') + 1);

function mediaObject(type: WaMediaType, f: OutboundFile, id: string, caption?: string) {
  if (type === 'audio') return { id };
  if (type === 'document') {
    return { id, filename: fileName(f), ...(caption ? { caption } : {}) };
  }
  return { id, ...(caption ? { caption } : {}) };
}

const refuse = (text: string) => new ProviderSendError({ code: LOCAL_CODES.invalid, text });

/**
 * Plans the requests of one message. `mediaId` gives the provider's id of a file (uploaded
 * once per campaign and sender, media-cache.ts).
 */
export async function planMessage(
  m: OutboundMessage,
  mediaId: (f: OutboundFile) => Promise<string>,
): Promise<WaPlan> {
  const head = { messaging_product: 'whatsapp' as const, to: m.to };
  const tracked = { ...head, biz_opaque_callback_data: m.reference };
  const files = m.media
    .map((f) => ({ f, type: waMediaType(f) }))
    .filter((x): x is { f: OutboundFile; type: WaMediaType } => x.type !== null);

  if (m.template) {
    const params = m.template.bodyParameters;
    return {
      main: {
        ...tracked,
        type: 'template',
        template: {
          name: m.template.name,
          language: { code: m.template.language },
          ...(params.length > 0
            ? {
                components: [
                  { type: 'body', parameters: params.map((text) => ({ type: 'text', text })) },
                ],
              }
            : {}),
        },
      },
      extras: [],
    };
  }
  // A call button exists only in an approved template; without one, a campaign with both
  // buttons goes as its URL button (`cta_url` takes exactly one).
  if (m.cta?.call && !m.cta.url) throw refuse(msg.providerCallNeedsTemplate);
  if (m.cta?.url) {
    if (m.message.length > WA_LIMITS.interactiveBody) {
      throw refuse(msg.providerBodyTooLong(WA_LIMITS.interactiveBody));
    }
    if (m.cta.url.text.length > WA_LIMITS.buttonText) {
      throw refuse(msg.providerButtonTextTooLong(WA_LIMITS.buttonText));
    }
    // The header is the campaign's creative (its single image, video or pdf), when it has one.
    const creative = files.find((x) => x.type !== 'audio');
    const header = creative
      ? {
          type: creative.type,
          [creative.type]: mediaObject(creative.type, creative.f, await mediaId(creative.f)),
        }
      : undefined;
    return {
      main: {
        ...tracked,
        type: 'interactive',
        interactive: {
          type: 'cta_url',
          ...(header ? { header } : {}),
          body: { text: m.message },
          action: {
            name: 'cta_url',
            parameters: { display_text: m.cta.url.text, url: m.cta.url.url },
          },
        },
      },
      extras: [],
    };
  }

  const text = (body: string) => ({
    type: 'text' as const,
    text: { ...(LINK.test(body) ? { preview_url: true } : {}), body },
  });
  const bodies: { type: WaMediaType; f: OutboundFile; id: string }[] = [];
  for (const x of files) bodies.push({ ...x, id: await mediaId(x.f) });
  const first = bodies[0];
  const captioned = first && first.type !== 'audio' && m.message.length <= WA_LIMITS.caption;
  if (first && captioned) {
    // The text rides as the first file's caption; the other files follow on their own.
    return {
      main: {
        ...tracked,
        type: first.type,
        [first.type]: mediaObject(first.type, first.f, first.id, m.message || undefined),
      },
      extras: bodies
        .slice(1)
        .map((b) => ({ ...head, type: b.type, [b.type]: mediaObject(b.type, b.f, b.id) })),
    };
  }
  if (m.message.length > WA_LIMITS.text) throw refuse(msg.providerBodyTooLong(WA_LIMITS.text));
  if (!m.message && first) {
    // Audio alone: the file is the message.
    return {
      main: {
        ...tracked,
        type: first.type,
        [first.type]: mediaObject(first.type, first.f, first.id),
      },
      extras: bodies
        .slice(1)
        .map((b) => ({ ...head, type: b.type, [b.type]: mediaObject(b.type, b.f, b.id) })),
    };
  }
  // Text first (audio takes no caption; a text past a caption's limit), then the files.
  return {
    main: { ...tracked, ...text(m.message) },
    extras: bodies.map((b) => ({
      ...head,
      type: b.type,
      [b.type]: mediaObject(b.type, b.f, b.id),
    })),
  };
}
