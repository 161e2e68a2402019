import {
  ANNOUNCEMENT_IMAGE_FIELD,
  ANNOUNCEMENT_IMAGE_MAX_BYTES,
  CreateAnnouncementFieldsSchema,
  FILE_TYPE_HEAD_BYTES,
  detectFileType,
  server as msg,
  type AnnouncementVisibilityType,
} from '@herald/contract';
import { firstIssues, type FieldErrors } from '../../components/field-errors';

/** The create form of Manage Announcements as typed. */
export interface AnnouncementFormValues {
  title: string;
  message: string;
  link: string;
  /** `YYYY-MM-DD` from the date input, or ''. */
  expiryDate: string;
  visibilityType: AnnouncementVisibilityType;
  /** Comma-separated emails (specific visibility only). */
  visibilityTargets: string;
}

export const EMPTY_ANNOUNCEMENT_FORM: AnnouncementFormValues = {
  title: '',
  message: '',
  link: '',
  expiryDate: '',
  visibilityType: 'all',
  visibilityTargets: '',
};

export const VISIBILITY_OPTIONS = [
  { value: 'all', label: 'All users' },
  { value: 'reseller', label: 'Resellers and Sub-Resellers' },
  { value: 'specific', label: 'Specific users' },
] as const;

/** The end of the chosen day in the viewer's time zone, as the instant the server stores. */
export function endOfLocalDay(date: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return date;
  const end = new Date(`${date}T23:59:59.999`);
  return Number.isNaN(end.getTime()) ? date : end.toISOString();
}

export type CheckedForm = { ok: true; data: FormData } | { ok: false; errors: FieldErrors };

/**
 * Validates with the server's schema and builds the multipart body. The expiry date is sent as
 * the end of that day where the Admin is, so an announcement lasts through its last day.
 */
export function checkAnnouncementForm(
  values: AnnouncementFormValues,
  image: File | null,
  now = Date.now(),
): CheckedForm {
  const fields = {
    title: values.title,
    message: values.message,
    link: values.link,
    expiryDate: values.expiryDate ? endOfLocalDay(values.expiryDate) : '',
    visibilityType: values.visibilityType,
    visibilityTargets: values.visibilityType === 'specific' ? values.visibilityTargets : '',
  };
  const parsed = CreateAnnouncementFieldsSchema.safeParse(fields);
  if (!parsed.success) return { ok: false, errors: firstIssues(parsed.error) };
  if (parsed.data.expiryDate && parsed.data.expiryDate.getTime() <= now) {
    return { ok: false, errors: { expiryDate: msg.announcementExpiryPast } };
  }
  const data = new FormData();
  for (const [k, v] of Object.entries(fields)) data.append(k, v);
  if (image) data.append(ANNOUNCEMENT_IMAGE_FIELD, image);
  return { ok: true, data };
}

/** Why a chosen image cannot be sent (too large, or not an image by its first bytes), or null. */
export async function imageProblem(file: Blob): Promise<string | null> {
  if (file.size > ANNOUNCEMENT_IMAGE_MAX_BYTES) {
    return msg.announcementImageTooLarge(ANNOUNCEMENT_IMAGE_MAX_BYTES / (1024 * 1024));
  }
  const head = new Uint8Array(await file.slice(0, FILE_TYPE_HEAD_BYTES).arrayBuffer());
  return detectFileType(head)?.family === 'image' ? null : msg.announcementImageType;
}
