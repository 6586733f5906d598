import { busyInstances, IcsUnreadable } from './ics-busy.rules.js';

/** What an edit in the outside calendar did to a booking's event, waiting for apply or ignore. */
export type OutsideChange = { kind: 'moved'; start: number; end: number } | { kind: 'deleted' };

/** The far end of the read of an event's times: a moved event is found wherever it went. */
const FAR_FUTURE_MS = Date.UTC(2200, 0, 1);

/**
 * Whether the event Kairos wrote for a booking was edited outside, from what the sync sees of it
 * (`'gone'` when the calendar no longer has it). Kairos' own writes are never such an edit: the
 * write path stores the ETag the server answered, and an object that still has it is ours. So an
 * edit is an object with another ETag whose times are not the booking's (a title or a note
 * changed outside moves nothing), or an object gone while the booking stands. A canceled booking's
 * event is Kairos' to remove: never reported.
 */
export function outsideChangeOf(
  stored: { etag: string | null },
  seen: { etag: string | null; ics: string } | 'gone',
  booking: { start: number; end: number; canceled: boolean },
  floatingZone: string,
): OutsideChange | null {
  if (booking.canceled) return null;
  if (seen === 'gone') return { kind: 'deleted' };
  if (seen.etag !== null && seen.etag === stored.etag) return null;
  let instances: ReturnType<typeof busyInstances>;
  try {
    instances = busyInstances(seen.ics, { floatingZone, from: 0, to: FAR_FUTURE_MS, allDayBlocks: true });
  } catch (error) {
    if (error instanceof IcsUnreadable) return null;
    throw error;
  }
  // A cancelled or transparent event has no busy instance: it no longer holds the time.
  const first = instances.sort((a, b) => a.start - b.start)[0];
  if (!first) return { kind: 'deleted' };
  if (first.start === booking.start && first.end === booking.end) return null;
  return { kind: 'moved', start: first.start, end: first.end };
}
