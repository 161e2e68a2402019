import { AnnouncementForm } from './announcement-form';
import { AnnouncementsTable } from './announcements-table';

/** Manage Announcements (/admin-announcements, Admin): the create form and the table. */
export function ManageAnnouncementsPage() {
  return (
    <div>
      <h1 className="h3 mb-3">Manage Announcements</h1>
      <AnnouncementForm />
      <AnnouncementsTable />
    </div>
  );
}
