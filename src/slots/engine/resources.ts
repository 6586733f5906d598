/**
 * Resources in the slot engine (docs/resources.md): how many new sessions of the service the
 * location's units allow at a start instant. Pure, like the rest of the engine: the busy spans
 * are given. A unit is free for a start t when the new session's span
 * [t - bufferBefore, t + duration + bufferAfter) overlaps none of its busy spans.
 */
import type { EngineContext } from './availability.js';
import type { ResourceNeedInput } from './types.js';
import { mergeSpans, type Span } from './working-spans.js';

interface PreparedUnit {
  resourceId: string;
  /** Open intervals (lo, hi) of starts that would overlap a busy span, merged and sorted. */
  blockLo: number[];
  blockHi: number[];
  cursor: number;
  lastT: number;
}

export interface PreparedNeed {
  units: number;
  pool: PreparedUnit[];
}

export function prepareResources(needs: ResourceNeedInput[], ctx: EngineContext): PreparedNeed[] {
  return needs.map((need) => ({
    units: need.units,
    pool: need.pool.map((unit) => {
      const busy = unit.busy.filter((b) => b.end > b.start).sort((a, b) => a.start - b.start);
      const blockLo: number[] = [];
      const blockHi: number[] = [];
      for (const b of busy) {
        // The same arithmetic as a staffer's occupancies (availability.ts prepareStaffer).
        const lo = b.start - ctx.durationMs - ctx.bufferAfterMs;
        const hi = b.end + ctx.bufferBeforeMs;
        const last = blockLo.length - 1;
        if (last >= 0 && lo < blockHi[last]!) {
          if (hi > blockHi[last]!) blockHi[last] = hi;
        } else {
          blockLo.push(lo);
          blockHi.push(hi);
        }
      }
      return { resourceId: unit.resourceId, blockLo, blockHi, cursor: 0, lastT: Number.NEGATIVE_INFINITY };
    }),
  }));
}

/** Whether the unit is free for a start at t; pointer-advancing like freeSeatsAt. */
function unitFreeAt(unit: PreparedUnit, t: number): boolean {
  if (t < unit.lastT) unit.cursor = 0;
  unit.lastT = t;
  while (unit.cursor < unit.blockHi.length && unit.blockHi[unit.cursor]! <= t) unit.cursor++;
  return !(unit.cursor < unit.blockHi.length && unit.blockLo[unit.cursor]! < t);
}

/** How many new sessions starting at t the units allow: the tightest need decides. */
export function sessionsAt(needs: PreparedNeed[], t: number): number {
  let sessions = Number.POSITIVE_INFINITY;
  for (const need of needs) {
    let free = 0;
    for (const unit of need.pool) if (unitFreeAt(unit, t)) free++;
    sessions = Math.min(sessions, Math.floor(free / need.units));
    if (sessions === 0) return 0;
  }
  return sessions;
}

/** Per need, the ids of its units free for a start at t, in pool order. */
export function freeUnitsAt(needs: PreparedNeed[], t: number): string[][] {
  return needs.map((need) => need.pool.filter((unit) => unitFreeAt(unit, t)).map((unit) => unit.resourceId));
}

/**
 * Where a new session cannot get its units, as instants a booking body may not cover: for some
 * need, fewer than `units` units are free there. A unit's busy span [s, e) keeps the body clear of
 * [s - bufferAfter, e + bufferBefore), the same widening as a staffer's occupancies
 * (free-intervals.ts freeSpansOf), so the free intervals narrowed by these hold exactly the
 * bodies the units allow. Sorted, disjoint; a need that can never be met is short everywhere.
 */
export function unitsShortSpans(needs: ResourceNeedInput[], ctx: EngineContext): Span[] {
  const short: Span[] = [];
  for (const need of needs) {
    const spare = need.pool.length - need.units;
    if (spare < 0) return [{ start: Number.NEGATIVE_INFINITY, end: Number.POSITIVE_INFINITY }];
    // Each unit's widened busy time merged first, so a unit is counted once at any instant.
    const edges: [number, number][] = [];
    for (const unit of need.pool) {
      const widened = mergeSpans(
        unit.busy.map((b) => ({ start: b.start - ctx.bufferAfterMs, end: b.end + ctx.bufferBeforeMs })),
      );
      for (const span of widened) edges.push([span.start, 1], [span.end, -1]);
    }
    // Ends before starts at one instant: a unit freed at t and another taken at t never overlap.
    edges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    let busy = 0;
    let since = 0;
    for (const [at, step] of edges) {
      const wasShort = busy > spare;
      busy += step;
      if (!wasShort && busy > spare) since = at;
      else if (wasShort && busy <= spare && at > since) short.push({ start: since, end: at });
    }
  }
  return mergeSpans(short);
}
