import { campaignFilePath } from '@herald/contract';
import { fetchFile, saveFile, type FetchedFile } from '../../lib/download';

/** GET /api/campaigns/{id}/files/{fileId}: one media file, fetched with the session's token. */
export function getCampaignFile(
  campaignId: string,
  file: { id: string; name: string },
  signal?: AbortSignal,
): Promise<FetchedFile> {
  const path = campaignFilePath(campaignId, file.id).replace(/^\/api/, '');
  return fetchFile(path, { fallbackName: file.name, signal });
}

/** Saves one media file under its original name. */
export async function downloadCampaignFile(
  campaignId: string,
  file: { id: string; name: string },
): Promise<void> {
  saveFile(await getCampaignFile(campaignId, file));
}
