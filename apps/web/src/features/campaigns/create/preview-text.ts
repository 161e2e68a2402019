/**
 * The message as the preview shows it: lines, and in each line the links a chat app makes
 * clickable. Plain data for React to render as text and anchors; never HTML.
 */
export type PreviewPart = { text: string } | { text: string; href: string };

const LINK = /\b(?:https?:\/\/|www\.)[^\s<>"]+/giu;
// A sentence's closing punctuation after a link is not part of it.
const TRAILING = /[.,;:!?)\]'"]+$/u;

/** One line's text and links, in order. */
export function splitLinks(line: string): PreviewPart[] {
  const parts: PreviewPart[] = [];
  let at = 0;
  for (const match of line.matchAll(LINK)) {
    const start = match.index;
    const url = match[0].replace(TRAILING, '');
    if (start > at) parts.push({ text: line.slice(at, start) });
    const href = /^https?:\/\//iu.test(url) ? url : `https://${url}`;
    parts.push({ text: url, href });
    at = start + url.length;
  }
  if (at < line.length) parts.push({ text: line.slice(at) });
  return parts;
}

/** The message's lines (kept as typed, blank ones too), each split into text and links. */
export function previewLines(message: string): PreviewPart[][] {
  return message.split(/\r\n|\r|\n/u).map(splitLinks);
}
