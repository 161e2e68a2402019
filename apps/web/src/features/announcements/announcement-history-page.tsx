import { Accordion, Alert, Image } from 'react-bootstrap';
import { ui, type Announcement, type AnnouncementList } from '@herald/contract';
import { formatDate } from '../../lib/format';
import { LoadingSpinner } from '../../components/loading-spinner';
import { LoadMoreFooter } from '../../components/load-more-footer';
import { usePagedRows } from '../../components/use-paged-rows';
import { useAnnouncementHistory } from '../../api/announcements/get-announcement-history';
import { learnMoreHref } from './history-items';

const announcementsOf = (page: AnnouncementList) => page.announcements;

/**
 * Announcement history (/announcements-history): an accordion of the caller's
 * announcements, newest first, expired ones too; each item shows the title with its date and
 * the message with its line breaks; the first item starts open. All text is rendered as text, and
 * Learn More appears only for an http(s) link (learnMoreHref).
 */
export function AnnouncementHistoryPage() {
  const history = useAnnouncementHistory();
  const { rows: items, loading, failed, more } = usePagedRows(history, announcementsOf);

  return (
    <div>
      <h1 className="h3 mb-3">Announcements</h1>
      {loading ? (
        <LoadingSpinner label="Loading announcements..." />
      ) : failed ? (
        <Alert variant="danger">{ui.announcements.historyFailed}</Alert>
      ) : items.length === 0 ? (
        <Alert variant="info">{ui.announcements.historyEmpty}</Alert>
      ) : (
        <>
          <Accordion defaultActiveKey={items[0]?._id} aria-label="Announcement history">
            {items.map((a) => (
              <Accordion.Item eventKey={a._id} key={a._id}>
                <Accordion.Header>
                  <span className="fw-semibold me-2">{a.title}</span>
                  <small className="text-muted">{formatDate(a.createdAt)}</small>
                </Accordion.Header>
                <Accordion.Body>
                  {a.image && (
                    <Image
                      src={a.image}
                      alt=""
                      fluid
                      className="mb-3 d-block"
                      style={{ maxHeight: 300 }}
                      onError={(e) => {
                        e.currentTarget.style.display = 'none';
                      }}
                    />
                  )}
                  <p className="mb-2" style={{ whiteSpace: 'pre-wrap' }}>
                    {a.message}
                  </p>
                  <LearnMore announcement={a} />
                </Accordion.Body>
              </Accordion.Item>
            ))}
          </Accordion>
          <LoadMoreFooter {...more} noun="announcements" endText="End of announcements." />
        </>
      )}
    </div>
  );
}

/** Learn More, only for an http(s) link; anything else shows no link at all. */
function LearnMore({ announcement }: { announcement: Pick<Announcement, 'link'> }) {
  const href = learnMoreHref(announcement);
  return href ? (
    <a
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      className="btn btn-sm btn-outline-primary"
    >
      Learn More
    </a>
  ) : null;
}
