-- One link between a panel user and a staffer (issue 15): memberships.staffer_id (0012) is the
-- only one. It decides where the staffer's booking emails go (src/notifications), the member's
-- own calendar column (src/calendar) and their own calendar feed (src/calendar-feeds); it is set
-- in the panel under Settings → Notifications. staffers.user_id (0011) said the first of these
-- alone and goes here, after its links are carried over.

-- Each staffers.user_id becomes its membership's staffer_id, where the user is still a member,
-- that membership is no staffer yet and the staffer is no member yet: an existing memberships
-- link always wins. A user linked to several staffers keeps one: a live one before an archived
-- one, then the oldest.
UPDATE memberships AS m
SET staffer_id = pick.staffer_id
FROM (
  SELECT DISTINCT ON (s.workspace_id, s.user_id) s.workspace_id, s.user_id, s.id AS staffer_id
  FROM staffers AS s
  WHERE s.user_id IS NOT NULL
    AND NOT EXISTS (
      SELECT 1 FROM memberships AS taken WHERE taken.workspace_id = s.workspace_id AND taken.staffer_id = s.id
    )
  ORDER BY s.workspace_id, s.user_id, (s.archived_at IS NOT NULL), s.created_at, s.id
) AS pick
WHERE m.workspace_id = pick.workspace_id
  AND m.user_id = pick.user_id
  AND m.staffer_id IS NULL;

ALTER TABLE staffers DROP COLUMN user_id;
