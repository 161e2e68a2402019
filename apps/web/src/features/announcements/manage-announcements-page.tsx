import { AnnouncementForm } from './announcement-form';
import { AnnouncementsTable } from './announcements-table';

/** Manage Announcements (/admin-announcements, Admin; spec 2.15): the create form and the table. */
export function ManageAnnouncementsPage() {
  return (
    <div>
      <h1 className="h3 mb-3">Manage Announcements</h1>
      <AnnouncementForm />
      <AnnouncementsTable />
    </div>
  );
}
