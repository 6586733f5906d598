-- The busy time the slot engine reads, merged (issue 28 point 8). calendar_busy_spans keeps one
-- row per event occurrence (the panel shows each, with its title when allowed); a calendar of
-- many overlapping events gives the slots read hundreds of rows a month that block no more than
-- their union. Each sync rewrites a staffer's union here, in the transaction that changes the
-- spans, so the slots read (src/slots/slots.repository.ts) gets a few rows a day at most.
-- Blocks are stored in pieces of at most a day, like the spans, so a scan by start is bounded.
-- Keyed by workspace_id first: Citus distributes it by workspace; a disconnect removes them.
CREATE TABLE calendar_busy_blocks (
  workspace_id  uuid NOT NULL,
  staffer_id    uuid NOT NULL,
  start_ms      double precision NOT NULL,
  end_ms        double precision NOT NULL,
  PRIMARY KEY (workspace_id, staffer_id, start_ms)
);
ALTER TABLE calendar_busy_blocks ADD FOREIGN KEY (workspace_id, staffer_id) REFERENCES calendar_connections (workspace_id, staffer_id) ON DELETE CASCADE;

-- The blocks of the spans already stored: overlapping or touching spans of a staffer joined into
-- islands, each cut into pieces of at most a day.
INSERT INTO calendar_busy_blocks (workspace_id, staffer_id, start_ms, end_ms)
SELECT i.workspace_id, i.staffer_id,
       i.start_ms + k * 86400000::float8,
       least(i.end_ms, i.start_ms + (k + 1) * 86400000::float8)
FROM (
  SELECT workspace_id, staffer_id, min(start_ms) AS start_ms, max(end_ms) AS end_ms
  FROM (
    SELECT workspace_id, staffer_id, start_ms, end_ms,
           sum(CASE WHEN start_ms > prev_end THEN 1 ELSE 0 END)
             OVER (PARTITION BY workspace_id, staffer_id ORDER BY start_ms, end_ms) AS island
    FROM (
      SELECT workspace_id, staffer_id, start_ms, end_ms,
             max(end_ms) OVER (PARTITION BY workspace_id, staffer_id ORDER BY start_ms, end_ms
                               ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS prev_end
      FROM calendar_busy_spans
      WHERE end_ms > start_ms
    ) AS ordered
  ) AS numbered
  GROUP BY workspace_id, staffer_id, island
) AS i
CROSS JOIN LATERAL generate_series(0, ceil((i.end_ms - i.start_ms) / 86400000)::int - 1) AS k;
