import { campaignNumbersPath, type CampaignNumberGroup } from '@herald/contract';
import { fetchFile } from '../../lib/download';

/**
 * GET /api/campaigns/{id}/numbers?which=…: one group of a campaign's numbers as a CSV Blob
 * (header `number`, one number a line). Kept as a Blob, never a string: it may hold a million.
 */
export async function getCampaignNumbers(
  id: string,
  which: CampaignNumberGroup,
  signal?: AbortSignal,
): Promise<Blob> {
  const path = campaignNumbersPath(id).replace(/^\/api/, '');
  const file = await fetchFile(path, {
    fallbackName: `campaign_${id}_${which}_numbers.csv`,
    query: { which },
    signal,
  });
  return file.blob;
}
