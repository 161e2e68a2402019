import { detectFileType, FILE_TYPE_HEAD_BYTES, MAX_LOGO_BYTES, server } from '@herald/contract';

/**
 * The logo as the server will judge it (png or jpeg), by its first bytes rather than its
 * name, so a refused file is named before upload. The server checks again.
 */
export async function logoProblem(file: Blob): Promise<string | null> {
  if (file.size > MAX_LOGO_BYTES) return server.logoTooLarge;
  const head = new Uint8Array(await file.slice(0, FILE_TYPE_HEAD_BYTES).arrayBuffer());
  const ext = detectFileType(head)?.ext;
  return ext === 'png' || ext === 'jpg' ? null : server.logoType;
}
