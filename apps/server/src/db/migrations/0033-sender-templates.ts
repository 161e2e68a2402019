/**
 * WhatsApp templates (docs/delivery.md, Templates): the templates Meta approved for a WhatsApp
 * sender, by name and language, with their body's text (its `{{n}}` variables counted once,
 * here); and a campaign's copy of the template it is sent as, with its variables' values, so a
 * template edited or removed later changes nothing already created.
 */
export const sql = /* sql */ `
CREATE TABLE sender_templates (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  sender_id uuid NOT NULL REFERENCES senders(id) ON DELETE CASCADE,
  name text NOT NULL,
  language text NOT NULL,
  body text NOT NULL,
  variables integer NOT NULL CHECK (variables >= 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (sender_id, name, language)
);

-- { name, language, bodyParameters }; NULL: sent as the campaign's own message.
ALTER TABLE campaigns ADD COLUMN template jsonb;
`;
