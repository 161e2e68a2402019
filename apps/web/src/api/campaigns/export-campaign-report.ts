import { fetchFile, saveFile } from '../../lib/download';

/** The name saved when the server sends no Content-Disposition. */
export const campaignReportCsvName = (id: string) => `campaign_${id}_report.csv`;

/** GET /api/campaigns/{id}/report/export: the delivery report as CSV. */
export async function exportCampaignReport(id: string): Promise<void> {
  const path = `/campaigns/${encodeURIComponent(id)}/report/export`;
  saveFile(await fetchFile(path, { fallbackName: campaignReportCsvName(id) }));
}
