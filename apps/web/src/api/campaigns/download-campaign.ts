import { fetchFile, saveFile } from '../../lib/download';

/** The name saved when the server sends no Content-Disposition. */
export const campaignZipName = (id: string) => `campaign_${id}.zip`;

/** GET /api/campaigns/{id}/download: the asset zip, saved under the server's name. */
export async function downloadCampaign(id: string): Promise<void> {
  const path = `/campaigns/${encodeURIComponent(id)}/download`;
  saveFile(await fetchFile(path, { fallbackName: campaignZipName(id) }));
}
