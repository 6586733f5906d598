-- The busy time of each room, chair or piece of equipment as the slot read takes it: the union
-- of the spans its sessions hold (resource_occupancies), in pieces of a day at most, like a
-- staffer's calendar blocks (migration 0037). A room booked back to back all day is one row
-- here instead of ten, and the 31-day time-slots read of a service that needs a room scans a few
-- rows per room and day. Every change of a unit's holds rewrites the pieces around it in the same
-- transaction (src/resources/resource-occupancies.repository.ts), under a lock on the unit's row.
-- A booking being changed is checked against the raw holds, which can leave its own out.
-- Keyed by workspace_id first: Citus distributes it by workspace.
CREATE TABLE resource_busy_blocks (
  workspace_id  uuid NOT NULL,
  resource_id   uuid NOT NULL,
  start_ms      double precision NOT NULL,
  end_ms        double precision NOT NULL,
  PRIMARY KEY (workspace_id, resource_id, start_ms),
  CHECK (end_ms > start_ms AND end_ms - start_ms <= 86400000)
);
ALTER TABLE resource_busy_blocks ADD CONSTRAINT resource_busy_blocks_resource_fk
  FOREIGN KEY (workspace_id, resource_id) REFERENCES resources (workspace_id, id);

-- The blocks of the holds already stored: overlapping or touching spans of a unit joined into
-- islands, each cut into pieces of at most a day (the same statement as migration 0037's).
INSERT INTO resource_busy_blocks (workspace_id, resource_id, start_ms, end_ms)
SELECT i.workspace_id, i.resource_id,
       i.start_ms + k * 86400000::float8,
       least(i.end_ms, i.start_ms + (k + 1) * 86400000::float8)
FROM (
  SELECT workspace_id, resource_id, min(start_ms) AS start_ms, max(end_ms) AS end_ms
  FROM (
    SELECT workspace_id, resource_id, start_ms, end_ms,
           sum(CASE WHEN start_ms > prev_end THEN 1 ELSE 0 END)
             OVER (PARTITION BY workspace_id, resource_id ORDER BY start_ms, end_ms) AS island
    FROM (
      SELECT workspace_id, resource_id, start_ms, end_ms,
             max(end_ms) OVER (PARTITION BY workspace_id, resource_id ORDER BY start_ms, end_ms
                               ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS prev_end
      FROM resource_occupancies
      WHERE end_ms > start_ms
    ) AS ordered
  ) AS numbered
  GROUP BY workspace_id, resource_id, island
) AS i
CROSS JOIN LATERAL generate_series(0, ceil((i.end_ms - i.start_ms) / 86400000)::int - 1) AS k;
