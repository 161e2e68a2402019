import { startTransition, useEffect, useMemo, useRef, useState } from 'react';
import { Badge, Button, Dropdown, Spinner } from 'react-bootstrap';
import { useNavigate } from 'react-router';
import { ui, type Announcement, type Notification } from '@herald/contract';
import { formatDateTime } from '../../lib/format';
import { useUnreadNotifications } from '../../api/notifications/get-notifications';
import {
  useMarkAllNotificationsRead,
  useMarkNotificationRead,
} from '../../api/notifications/mark-notification-read';
import { useMyAnnouncements } from '../../api/announcements/get-my-announcements';
import { useMarkAnnouncementSeen } from '../../api/announcements/mark-announcement-seen';
import { countRose, internalPath, mergeAlerts, previewOf, unreadTotal } from './alert-items';
import { playAlertTone, unlockAlertToneOnGesture } from './alert-tone';
import { AnnouncementDialog } from './announcement-dialog';
import { useLiveAlerts } from './use-live-alerts';
import './alerts.css';

/**
 * The alerts bell of the top bar. It mounts one commit after the layout, with the same button
 * standing in until then: react-bootstrap's Dropdown re-renders synchronously when its toggle's
 * ref attaches, and a synchronous update left at the end of a commit makes React run that
 * commit's effects (every query of the layout and the screen starting) and the re-render in
 * the same task, one long task of the page's start (docs/performance.md, Page speed). A click
 * on the stand-in mounts the bell at once, open, with the focus on its toggle.
 */
export function AlertsBell() {
  const [mounted, setMounted] = useState(false);
  const [openAtMount, setOpenAtMount] = useState(false);
  useEffect(() => {
    startTransition(() => setMounted(true));
  }, []);
  if (mounted) return <LiveAlertsBell openAtMount={openAtMount} />;
  return (
    <button
      type="button"
      className="alerts-bell-toggle position-relative rounded-circle dropdown-toggle btn btn-light"
      aria-label={ui.alerts.bell}
      aria-expanded="false"
      onClick={() => {
        setOpenAtMount(true);
        setMounted(true);
      }}
    >
      <BellIcon />
    </button>
  );
}

/**
 * The bell itself: a badge of unread notifications plus unseen announcements, a dropdown of
 * them merged newest first, a chime when the count rises. It is kept current live (GET
 * /api/live) with the 30-second refresh as the fallback; failures to load are only logged.
 */
function LiveAlertsBell({ openAtMount }: { openAtMount: boolean }) {
  useLiveAlerts();
  const toggleRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    // Opened from the stand-in: the focus was on the button this one replaces.
    if (openAtMount) toggleRef.current?.focus();
  }, [openAtMount]);
  const notifications = useUnreadNotifications();
  const announcements = useMyAnnouncements();
  const markRead = useMarkNotificationRead();
  const markAll = useMarkAllNotificationsRead();
  const markSeen = useMarkAnnouncementSeen();
  const navigate = useNavigate();
  const [open, setOpen] = useState<Announcement | null>(null);

  useEffect(() => {
    if (notifications.error) console.error('Failed to load notifications:', notifications.error);
  }, [notifications.error]);
  useEffect(() => {
    if (announcements.error) console.error('Failed to load announcements:', announcements.error);
  }, [announcements.error]);

  const items = useMemo(
    () =>
      mergeAlerts(notifications.data?.notifications ?? [], announcements.data?.announcements ?? []),
    [notifications.data, announcements.data],
  );
  const loaded = notifications.data !== undefined || announcements.data !== undefined;
  const count = unreadTotal(notifications.data, announcements.data);
  const loading = notifications.isFetching || announcements.isFetching;
  const badge = count > 99 ? '99+' : count > 0 ? String(count) : null;

  useEffect(unlockAlertToneOnGesture, []);
  const previous = useRef<number | undefined>(undefined);
  useEffect(() => {
    if (!loaded) return;
    if (countRose(previous.current, count)) playAlertTone();
    previous.current = count;
  }, [loaded, count]);

  const openNotification = (n: Notification) => {
    markRead.mutate(n._id, {
      onError: (err) => console.error('Failed to mark the notification read:', err),
    });
    const path = internalPath(n.link);
    if (path) void navigate(path);
  };
  const seen = (a: Announcement, close: boolean) => {
    markSeen.mutate(a._id, {
      onError: (err) => console.error('Failed to mark the announcement seen:', err),
    });
    if (close) setOpen(null);
  };

  return (
    <>
      <Dropdown align="end" defaultShow={openAtMount}>
        <Dropdown.Toggle
          ref={toggleRef}
          variant="light"
          className="alerts-bell-toggle position-relative rounded-circle"
          // The name holds the badge's text as shown ("Alerts 3", "Alerts 99+"): a name that
          // contains what is seen is what speech input users say (WCAG 2.5.3 Label in Name).
          aria-label={badge ? `${ui.alerts.bell} ${badge}` : ui.alerts.bell}
        >
          <BellIcon />
          {badge && (
            <Badge
              pill
              bg="danger"
              className="position-absolute top-0 start-100 translate-middle"
              data-testid="alerts-badge"
            >
              {badge}
            </Badge>
          )}
        </Dropdown.Toggle>
        <Dropdown.Menu className="alerts-menu py-0 shadow" aria-label={ui.alerts.bell}>
          {/* A plain header row: Dropdown.Header would be a heading without a level. */}
          <div className="d-flex align-items-center gap-2 border-bottom px-3 py-2">
            <span className="fw-semibold text-body me-auto">
              {items.length > 0 ? ui.alerts.newAlerts : ui.alerts.noNewAlerts}
            </span>
            {loading && (
              <Spinner animation="border" size="sm" role="status">
                <span className="visually-hidden">{ui.alerts.loading}</span>
              </Spinner>
            )}
            {(notifications.data?.unreadCount ?? 0) > 0 && (
              <Button
                variant="link"
                size="sm"
                className="p-0 text-nowrap"
                disabled={markAll.isPending}
                onClick={() =>
                  markAll.mutate(undefined, {
                    onError: (err) => console.error(`${ui.alerts.markAllFailed}`, err),
                  })
                }
              >
                {ui.alerts.markAllRead}
              </Button>
            )}
          </div>
          {items.map((item) =>
            item.kind === 'notification' ? (
              <Dropdown.Item
                key={item.id}
                as="button"
                className="border-bottom py-2"
                onClick={() => openNotification(item.notification)}
              >
                <div className="small fw-semibold text-primary">{ui.alerts.notification}</div>
                <div>{item.notification.message}</div>
                <small className="text-muted">{formatDateTime(item.notification.createdAt)}</small>
              </Dropdown.Item>
            ) : (
              <Dropdown.Item
                key={item.id}
                as="button"
                className="border-bottom py-2"
                onClick={() => setOpen(item.announcement)}
              >
                <div className="fw-semibold">{item.announcement.title}</div>
                <div className="small text-muted">{previewOf(item.announcement.message)}</div>
              </Dropdown.Item>
            ),
          )}
        </Dropdown.Menu>
      </Dropdown>
      <AnnouncementDialog announcement={open} onClose={() => setOpen(null)} onSeen={seen} />
    </>
  );
}

function BellIcon() {
  return (
    <svg width="20" height="20" viewBox="0 0 16 16" fill="currentColor" aria-hidden="true">
      <path d="M8 16a2 2 0 0 0 2-2H6a2 2 0 0 0 2 2zm.995-14.901a1 1 0 1 0-1.99 0A5.002 5.002 0 0 0 3 6c0 1.098-.5 6-2 7h14c-1.5-1-2-5.902-2-7 0-2.42-1.72-4.44-4.005-4.901z" />
    </svg>
  );
}
