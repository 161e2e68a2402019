import { Button, Image, Modal } from 'react-bootstrap';
import { ui, type Announcement } from '@herald/contract';
import { formatDate } from '../../lib/format';
import { externalLink } from '../../lib/external-link';

interface Props {
  announcement: Announcement | null;
  onClose: () => void;
  /** Marks it seen; `close` also closes the dialog. */
  onSeen: (announcement: Announcement, close: boolean) => void;
}

/**
 * An announcement opened from the bell: title, optional image, the message with its
 * line breaks, 'Posted on', 'Learn More' (only with a link: a new tab, then seen), Close and
 * 'Mark as Read'. Every field is rendered as text.
 */
export function AnnouncementDialog({ announcement, onClose, onSeen }: Props) {
  const link = externalLink(announcement?.link ?? null);
  return (
    <Modal
      show={announcement !== null}
      onHide={onClose}
      size="lg"
      centered
      aria-labelledby="announcement-dialog-title"
    >
      {announcement && (
        <>
          <Modal.Header closeButton>
            <Modal.Title id="announcement-dialog-title" className="alerts-message">
              {announcement.title}
            </Modal.Title>
          </Modal.Header>
          <Modal.Body>
            {announcement.image && (
              <Image
                src={announcement.image}
                alt=""
                fluid
                className="mb-3 d-block mx-auto"
                style={{ maxHeight: 360 }}
                onError={(e) => {
                  e.currentTarget.style.display = 'none';
                }}
              />
            )}
            <p className="alerts-message">{announcement.message}</p>
            <small className="text-muted">
              {ui.alerts.postedOn} {formatDate(announcement.createdAt)}
            </small>
          </Modal.Body>
          <Modal.Footer>
            {link && (
              <a
                href={link}
                target="_blank"
                rel="noopener noreferrer"
                className="btn btn-outline-primary me-auto"
                onClick={() => onSeen(announcement, false)}
              >
                {ui.alerts.learnMore}
              </a>
            )}
            <Button variant="secondary" onClick={onClose}>
              {ui.alerts.close}
            </Button>
            <Button variant="primary" onClick={() => onSeen(announcement, true)}>
              {ui.alerts.markAsRead}
            </Button>
          </Modal.Footer>
        </>
      )}
    </Modal>
  );
}
