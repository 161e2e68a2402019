import { fetchFile, saveFile } from '../../../lib/download';
import { campaignReportCsvName } from '../campaigns-data';

/** GET /api/campaigns/{id}/report/export: the delivery report as CSV. */
export async function exportCampaignReport(id: string): Promise<void> {
  const path = `/campaigns/${encodeURIComponent(id)}/report/export`;
  saveFile(await fetchFile(path, { fallbackName: campaignReportCsvName(id) }));
}
