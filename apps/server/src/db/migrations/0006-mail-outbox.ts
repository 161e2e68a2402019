/**
 * The mail outbox: a mail is a row written in the same transaction as the change that causes
 * it, and a job sends it. A crash after the commit loses no mail; a failing SMTP server only
 * delays it. The body can hold a one-time code or a password, so it is cleared once sent;
 * recipient, subject and times stay a while as a record of what went out.
 */
export const sql = /* sql */ `
CREATE TABLE mail_outbox (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  recipient text NOT NULL,
  subject text NOT NULL,
  body text,
  created_at timestamptz NOT NULL DEFAULT now(),
  sent_at timestamptz,
  attempts integer NOT NULL DEFAULT 0,
  last_error text,
  CHECK (sent_at IS NOT NULL OR body IS NOT NULL)
);
CREATE INDEX mail_outbox_unsent_idx ON mail_outbox (created_at) WHERE sent_at IS NULL;
CREATE INDEX mail_outbox_sent_idx ON mail_outbox (sent_at) WHERE sent_at IS NOT NULL;
`;
