/**
 * Quiet hours (docs/delivery.md, Quiet hours; docs/product.md, Quiet hours).
 *
 * - `users.quiet_start`, `users.quiet_end`: an account's own window, minutes after local
 *   midnight (0-1439), both set or both NULL (NULL: the nearest ancestor's applies, and finally
 *   the Admin default of the contract).
 * - `campaigns.quiet_start`, `quiet_end`: the owner's effective window, captured when the
 *   engine starts the campaign (NULL: the campaign has no quiet hours, e.g. started before this
 *   migration). `recipient_zones`: the distinct zone ids of its recipients, written at ingest.
 *   `dispatch_held_from`, `dispatch_held_zones`: the first number a filtered claim passed over
 *   and the zones that were closed then, so the cursor goes back once one of them opens.
 *   `dispatch_quiet`: the campaign waits because all its remaining recipients are in quiet hours.
 * - `campaign_recipients.zone`: the recipient's zone id (an index into the server's zone table,
 *   0 the default country's), computed at ingest so the claim parses nothing. A constant
 *   default adds the column without rewriting the table.
 */
export const sql = /* sql */ `
ALTER TABLE users
  ADD COLUMN quiet_start smallint,
  ADD COLUMN quiet_end smallint,
  ADD CONSTRAINT users_quiet_hours_check CHECK (
    (quiet_start IS NULL) = (quiet_end IS NULL)
    AND quiet_start BETWEEN 0 AND 1439 AND quiet_end BETWEEN 0 AND 1439
    AND quiet_start <> quiet_end);

ALTER TABLE campaigns
  ADD COLUMN quiet_start smallint,
  ADD COLUMN quiet_end smallint,
  ADD COLUMN recipient_zones smallint[],
  ADD COLUMN dispatch_held_from text,
  ADD COLUMN dispatch_held_zones smallint[],
  ADD COLUMN dispatch_quiet boolean NOT NULL DEFAULT false;

ALTER TABLE campaign_recipients ADD COLUMN zone smallint NOT NULL DEFAULT 0;
`;
