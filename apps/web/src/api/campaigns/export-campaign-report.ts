import { fetchFile, saveFile } from '../../lib/download';
import { ALL_ROWS, reportViewQuery, type ReportView } from './get-campaign-report';

/** The name saved when the server sends no Content-Disposition. */
export const campaignReportCsvName = (id: string) => `campaign_${id}_report.csv`;

/** GET /api/campaigns/{id}/report/export: the rows of the view as CSV. */
export async function exportCampaignReport(id: string, view: ReportView = ALL_ROWS): Promise<void> {
  const path = `/campaigns/${encodeURIComponent(id)}/report/export`;
  saveFile(
    await fetchFile(path, {
      fallbackName: campaignReportCsvName(id),
      query: reportViewQuery(view),
    }),
  );
}
