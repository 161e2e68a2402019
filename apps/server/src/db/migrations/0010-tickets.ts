/**
 * Support tickets (docs/product.md, Tickets): the ticket, its conversation and its
 * attachments, stored on disk under generated names. `assigned_to` NULL means the Admins (every
 * new ticket, and after an escalation). The related transaction has no foreign key: the data
 * cleanup deletes ledger entries in bulk, and the ticket keeps the number it was opened about.
 */
export const sql = /* sql */ `
CREATE TABLE tickets (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  number bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  subject text NOT NULL,
  description text NOT NULL,
  issue_type text NOT NULL DEFAULT 'Other'
    CHECK (issue_type IN ('Other', 'Campaign', 'User', 'Credits/Debits')),
  status text NOT NULL DEFAULT 'Open'
    CHECK (status IN ('Open', 'In Progress', 'Resolved', 'Closed', 'Escalated')),
  assigned_to uuid REFERENCES users(id) ON DELETE SET NULL,
  related_campaign uuid REFERENCES campaigns(id) ON DELETE SET NULL,
  related_user uuid REFERENCES users(id) ON DELETE SET NULL,
  related_transaction bigint,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX tickets_user_idx ON tickets (user_id, number DESC);
CREATE INDEX tickets_assigned_idx ON tickets (assigned_to, number DESC)
  WHERE assigned_to IS NOT NULL;
CREATE INDEX tickets_open_idx ON tickets (user_id) WHERE status IN ('Open', 'In Progress', 'Escalated');
CREATE INDEX tickets_related_campaign_idx ON tickets (related_campaign)
  WHERE related_campaign IS NOT NULL;
CREATE INDEX tickets_related_user_idx ON tickets (related_user) WHERE related_user IS NOT NULL;

CREATE TABLE ticket_replies (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  ticket_id uuid NOT NULL REFERENCES tickets(id) ON DELETE CASCADE,
  -- The author's email and name are kept, so the conversation reads the same after a cleanup.
  user_id uuid REFERENCES users(id) ON DELETE SET NULL,
  user_email text NOT NULL,
  user_name text NOT NULL,
  message text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX ticket_replies_ticket_idx ON ticket_replies (ticket_id, created_at, id);
CREATE INDEX ticket_replies_user_idx ON ticket_replies (user_id) WHERE user_id IS NOT NULL;

CREATE TABLE ticket_attachments (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  ticket_id uuid NOT NULL REFERENCES tickets(id) ON DELETE CASCADE,
  stored_name text NOT NULL UNIQUE,
  original_name text NOT NULL,
  mime text NOT NULL,
  size bigint NOT NULL CHECK (size >= 0),
  position integer NOT NULL DEFAULT 0
);
CREATE INDEX ticket_attachments_ticket_idx ON ticket_attachments (ticket_id, position);
`;
