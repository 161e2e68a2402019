import { ticketAttachmentPath } from '@herald/contract';
import { fetchFile, saveFile } from '../../lib/download';

/** GET /api/tickets/{id}/attachments/{attachmentId}: saved under the server's name. */
export async function downloadTicketAttachment(
  ticketId: string,
  attachment: { id: string; name: string },
): Promise<void> {
  const path = ticketAttachmentPath(ticketId, attachment.id).replace(/^\/api/, '');
  saveFile(await fetchFile(path, { fallbackName: attachment.name }));
}
