-- An offer the periodic round claims at once (a group-class seat filled from the line) says so in
-- its own column, made_by = 'auto', instead of an `auto:` prefix on its token hash. A link never
-- claims such an offer: the claim by link asks for made_by <> 'auto'.
ALTER TABLE waitlist_offers DROP CONSTRAINT waitlist_offers_made_by_check;
ALTER TABLE waitlist_offers ADD CONSTRAINT waitlist_offers_made_by_check
  CHECK (made_by IN ('freed', 'staff', 'auto'));
UPDATE waitlist_offers SET made_by = 'auto', token_hash = substr(token_hash, 6)
  WHERE token_hash LIKE 'auto:%';
CREATE INDEX waitlist_offers_auto_open ON waitlist_offers (workspace_id, created_at)
  WHERE state = 'open' AND made_by = 'auto';
