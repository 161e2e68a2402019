import { fetchFile, saveFile } from '../../../lib/download';
import { campaignZipName } from '../campaigns-data';

/** GET /api/campaigns/{id}/download: the asset zip, saved under the server's name. */
export async function downloadCampaign(id: string): Promise<void> {
  const path = `/campaigns/${encodeURIComponent(id)}/download`;
  saveFile(await fetchFile(path, { fallbackName: campaignZipName(id) }));
}
