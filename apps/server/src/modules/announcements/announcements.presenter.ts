import type { AdminAnnouncement, Announcement } from '@herald/contract';
import { imageUrl } from './announcement-files.js';
import type { AnnouncementRow } from './announcements.repo.js';

/** What leaves the server of an announcement: the image as its public URL, never other fields. */
function base(row: AnnouncementRow) {
  return {
    _id: row.id,
    title: row.title,
    message: row.message,
    image: row.image ? imageUrl(row.image) : null,
    link: row.link,
    createdAt: row.created_at.toISOString(),
    expiryDate: row.expiry_date ? row.expiry_date.toISOString() : null,
  };
}

/** For its audience: whether the caller saw it, not whom else it targets. */
export function presentForUser(row: AnnouncementRow & { seen: boolean }): Announcement {
  return { ...base(row), visibility: { type: row.visibility_type }, seen: row.seen };
}

/** For Manage Announcements (Admin): with the target emails. */
export function presentForAdmin(row: AnnouncementRow & { targets: string[] }): AdminAnnouncement {
  return { ...base(row), visibility: { type: row.visibility_type, targets: row.targets } };
}
