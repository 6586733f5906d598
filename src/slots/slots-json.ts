import type { TimeSlotsResponse } from './slots.service.js';

/**
 * A time-slot answer as UTF-8 JSON, byte for byte what `JSON.stringify` writes, built one day at
 * a time. A 90-day answer is ~450 kB of JSON; as one string (two bytes per character as soon as a
 * "€" is in it) V8 allocates it straight into the old generation, and with 16 answers in flight
 * those strings drove most full garbage collections. A day is a few kB: its string dies young.
 */
export function timeSlotsJson(answer: TimeSlotsResponse): Buffer {
  const { dates, ...head } = answer;
  // `dates` is the last key of the answer, so its array closes the object.
  const opening = JSON.stringify(head);
  const parts = [Buffer.from(`${opening.slice(0, -1)}${opening === '{}' ? '' : ','}"dates":[`)];
  for (let i = 0; i < dates.length; i++) {
    const day = JSON.stringify(dates[i]);
    parts.push(Buffer.from(i === 0 ? day : `,${day}`));
  }
  parts.push(Buffer.from(']}'));
  return Buffer.concat(parts);
}
