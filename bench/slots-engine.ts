/**
 * Micro benchmark of the pure slot engine: 90 days x 20 staffers x 5,000 occupancies, step 15.
 * Run: node --import tsx bench/slots-engine.ts   (bar: median <= 50 ms)
 * Import runSlotsEngineBench() from a bench runner to get the same figures as an object.
 */
import { pathToFileURL } from 'node:url';
import { computeSlots } from '../src/slots/engine/compute-slots.js';
import type { Occupancy, SlotQuery, StafferInput, Weekday } from '../src/slots/engine/types.js';
import { prng } from './random.js';

export interface SlotsEngineBenchResult {
  case: string;
  iterations: number;
  median_ms: number;
  p95_ms: number;
  slots: number;
}

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** The benchmark input: Europe/Berlin, 2026-03-01..2026-05-29 (crosses the March DST change). */
export function buildSlotsEngineQuery(
  days = 90,
  stafferCount = 20,
  occupancyCount = 5000,
  seed = 42,
): SlotQuery {
  const random = prng(seed);
  const rangeStartMs = Date.UTC(2026, 2, 1);
  const workdays: Weekday[] = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
  const staffers: StafferInput[] = [];
  for (let s = 0; s < stafferCount; s++) {
    const opening = 7 + (s % 3); // staggered opening hours 07:00 / 08:00 / 09:00
    const weekly: Partial<Record<Weekday, { from: string; to: string }[]>> = {};
    const breaks: Partial<Record<Weekday, { from: string; to: string }[]>> = {};
    for (const day of workdays) {
      weekly[day] = [
        { from: `0${opening}:00`.slice(-5), to: '13:00' },
        { from: '13:30', to: '20:00' },
      ];
      breaks[day] = [{ from: '16:00', to: '16:15' }];
    }
    const overrides = [
      { date: new Date(rangeStartMs + (s % 30) * DAY_MS).toISOString().slice(0, 10), intervals: [] },
    ];
    staffers.push({ stafferId: `staffer-${s}`, schedule: { weekly, breaks, overrides }, occupancies: [] });
  }
  for (let i = 0; i < occupancyCount; i++) {
    const staffer = staffers[i % stafferCount]!;
    const day = Math.floor(random() * days);
    const minute = (7 * 60 + Math.floor(random() * 48) * 15) % 1440;
    const start = rangeStartMs + day * DAY_MS + minute * MINUTE_MS - 60 * MINUTE_MS; // ~Berlin wall time
    const length = (2 + Math.floor(random() * 6)) * 15 * MINUTE_MS;
    const occupancy: Occupancy = {
      start,
      end: start + length,
      serviceId: random() < 0.5 ? 'svc-main' : 'svc-other',
      serviceStart: start,
      seatsTaken: 1,
      capacity: 1,
    };
    staffer.occupancies.push(occupancy);
  }
  return {
    locationZone: 'Europe/Berlin',
    answerZone: 'Europe/Berlin',
    rangeStart: '2026-03-01',
    rangeEnd: new Date(rangeStartMs + (days - 1) * DAY_MS).toISOString().slice(0, 10),
    service: {
      id: 'svc-main',
      durationMinutes: 45,
      capacity: 1,
      bufferBeforeMinutes: 10,
      bufferAfterMinutes: 5,
      priceMinor: 9000,
    },
    rules: { slotStepMinutes: 15, minNoticeMinutes: 60, horizonDays: 120 },
    staffers,
    now: Date.UTC(2026, 1, 28, 12, 0, 0),
    priceFormatted: '25,00 €',
  };
}

function percentile(sorted: number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)]!;
}

export function runSlotsEngineBench(iterations = 40, warmup = 5): SlotsEngineBenchResult {
  const query = buildSlotsEngineQuery();
  let slots = 0;
  for (let i = 0; i < warmup; i++) computeSlots(query);
  const times: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const started = performance.now();
    const days = computeSlots(query);
    times.push(performance.now() - started);
    slots = days.reduce((sum, d) => sum + d.slots.length, 0);
  }
  times.sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 100) / 100;
  return {
    case: 'slots-engine 90d x 20 staffers x 5000 occupancies, step 15',
    iterations,
    median_ms: round(percentile(times, 50)),
    p95_ms: round(percentile(times, 95)),
    slots,
  };
}

const invokedDirectly =
  process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (invokedDirectly) {
  console.log(JSON.stringify(runSlotsEngineBench()));
}
