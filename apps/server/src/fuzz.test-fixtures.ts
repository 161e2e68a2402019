import {
  ANNOUNCEMENT_IMAGE_FIELD,
  CAMPAIGN_FILE_FIELDS,
  TICKET_ATTACHMENTS_FIELD,
} from '@herald/contract';

/** Bodies of the route fuzz test (fuzz.test.ts) that are not random. */

/** Names the upload routes read files under, so a cut-off file part reaches a file reader. */
const FILE_NAMES = [
  'companyLogo',
  'reportFile',
  ANNOUNCEMENT_IMAGE_FIELD,
  TICKET_ATTACHMENTS_FIELD,
  ...Object.keys(CAMPAIGN_FILE_FIELDS),
];
const filePart = (name: string) =>
  `--x\r\nContent-Disposition: form-data; name="${name}"; filename="a.png"\r\n` +
  `Content-Type: image/png\r\n\r\n\x89PNG\r\n\x1a\n`;
/**
 * Multipart bodies busboy refuses (`broken`): cut off, oversized part headers, no or the wrong
 * boundary; and odd ones it reads (a header line without a colon, a cut-off file part under a
 * name the route may not take), which the route answers as it sees fit, never with a 5xx.
 */
export const brokenMultipart = [
  { label: 'cut after the first boundary', boundary: 'x', body: '--x\r\n' },
  {
    label: 'cut inside a field',
    boundary: 'x',
    body: '--x\r\nContent-Disposition: form-data; name="companyName"\r\n\r\nAc',
  },
  { label: 'cut inside its part headers', boundary: 'x', body: '--x\r\nContent-Disposition: fo' },
  { label: 'oversized part headers', boundary: 'x', body: `--x\r\n${'A'.repeat(100_000)}` },
  { label: 'the wrong boundary', boundary: 'y', body: '--x\r\n\r\nv\r\n--x--\r\n' },
  { label: 'no boundary', boundary: '', body: '--x\r\n\r\nv\r\n--x--\r\n' },
]
  .map((b) => ({ ...b, broken: true }))
  .concat(
    {
      label: 'a header line without a colon',
      boundary: 'x',
      body: '--x\r\n\0\r\n\r\nv\r\n--x--\r\n',
      broken: false,
    },
    ...FILE_NAMES.map((name) => ({
      label: `cut inside file ${name}`,
      boundary: 'x',
      body: filePart(name),
      broken: false,
    })),
  )
  .map(({ boundary, ...b }) => ({
    ...b,
    type: boundary ? `multipart/form-data; boundary=${boundary}` : 'multipart/form-data',
  }));
