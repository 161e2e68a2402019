import type { Db, DbOrTx } from '../db/database.js';
import type { Mailer, MailMessage } from '../lib/mail.js';
import { addJob, TASKS } from './job-queue.js';
import {
  deleteSentBefore,
  findMail,
  findStalled,
  insertMail,
  markSent,
  recordFailure,
} from './mail-outbox.repo.js';

/** Sent mail is kept this long as a record of what went out (its body is gone already). */
export const SENT_MAIL_KEEP_DAYS = 30;

const jobKeyOf = (id: string) => `mail:${id}`;

/**
 * Mail goes through the `mail_outbox` table: `queue` writes the mail and its send job in the
 * caller's transaction, the `send-mail` job hands it to the transport (SMTP or `.eml` files).
 * A crash after the commit loses nothing (the job waits in PostgreSQL); a failing transport
 * makes the job throw, and graphile-worker retries it with exponential backoff. A mail is never
 * deleted unsent. Delivery is at least once: a crash between the transport's accept and the
 * row's update sends that mail again.
 */
export class MailOutbox {
  constructor(
    private readonly db: Db,
    private readonly transport: Mailer,
  ) {}

  /** Pass the transaction of the change that causes the mail; without one, opens its own. */
  async queue(db: DbOrTx, message: MailMessage): Promise<void> {
    if (!db.isTransaction) {
      return db.transaction().execute((tx) => this.queue(tx, message));
    }
    const id = await insertMail(db, {
      recipient: message.to,
      subject: message.subject,
      body: message.text,
      from_name: message.fromName ?? null,
    });
    await addJob(db, TASKS.sendMail, { id }, { jobKey: jobKeyOf(id) });
  }

  /** The `send-mail` job. Throws when the transport fails, so the job is retried. */
  async send(id: string): Promise<void> {
    const row = await findMail(this.db, id);
    // Already sent: a retry of a job whose completion was lost in a crash.
    if (!row || row.sent_at !== null || row.body === null) return;
    try {
      await this.transport.send({
        to: row.recipient,
        subject: row.subject,
        text: row.body,
        ...(row.from_name ? { fromName: row.from_name } : {}),
      });
    } catch (err) {
      await recordFailure(this.db, id, String(err));
      throw err;
    }
    // The body may hold a one-time code or a password: it is kept only until sent.
    await markSent(this.db, id);
  }

  /**
   * The `requeue-mail` job: an unsent mail whose job used up its attempts (days of backoff) or
   * went missing gets a fresh job, so a long SMTP outage delays mail without dropping it.
   */
  async requeueStalled(): Promise<number> {
    const stalled = await findStalled(this.db);
    for (const id of stalled) {
      // Same key: replaces the exhausted job, resetting its attempts.
      await addJob(this.db, TASKS.sendMail, { id }, { jobKey: jobKeyOf(id) });
    }
    return stalled.length;
  }

  /** The `prune-sent-mail` job: sent rows older than SENT_MAIL_KEEP_DAYS go. */
  async pruneSent(keepDays = SENT_MAIL_KEEP_DAYS): Promise<number> {
    return deleteSentBefore(this.db, keepDays);
  }
}
