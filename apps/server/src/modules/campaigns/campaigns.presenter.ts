import type { Campaign, CampaignFile } from '@herald/contract';
import type { CampaignView, FileView } from './campaigns.repo.js';

export function presentCampaign(row: CampaignView): Campaign {
  return {
    _id: row.id,
    userEmail: row.owner_email,
    userName: row.owner_name,
    createdBy: row.creator_email,
    creditType: row.credit_type,
    message: row.message,
    countryName: row.country_name,
    countryCode: row.country_code,
    ctaCall: row.cta_call,
    ctaCallText: row.cta_call_text,
    ctaURL: row.cta_url,
    ctaURLText: row.cta_url_text,
    status: row.status,
    recipientCount: row.recipient_count,
    reportCount: row.report_count,
    createdAt: row.created_at.toISOString(),
  };
}

export function presentFile(row: FileView): CampaignFile {
  return {
    id: row.id,
    kind: row.kind,
    name: row.original_name,
    mime: row.mime,
    size: Number(row.size),
  };
}
