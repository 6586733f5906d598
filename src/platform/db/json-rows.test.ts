import { describe, expect, it } from 'vitest';
import { JsonRows } from './json-rows.js';

describe('JsonRows', () => {
  it('gives a row with its timestamps as dates, and the same object while the text is the same', () => {
    const rows = new JsonRows<{ id: string; name: string; created_at: Date; tags: string[] }>(['created_at']);
    const text = '{"id":"a","name":"Nord","created_at":"2026-11-26T13:06:46.123456+00:00","tags":["x"]}';
    const first = rows.row('a', text);
    expect(first).toEqual({
      id: 'a',
      name: 'Nord',
      created_at: new Date('2026-11-26T13:06:46.123Z'),
      tags: ['x'],
    });
    expect(rows.row('a', `${text}`)).toBe(first);
    expect(Object.isFrozen(first) && Object.isFrozen(first.tags)).toBe(true);
  });

  it('parses again when any part of the text changed, and keeps null timestamps null', () => {
    const rows = new JsonRows<{ id: string; tags: string[]; archived_at: Date | null }>(['archived_at']);
    const before = rows.row('a', '{"id":"a","tags":["x"],"archived_at":null}');
    const after = rows.row('a', '{"id":"a","tags":["y"],"archived_at":null}');
    expect(after).not.toBe(before);
    expect(after).toEqual({ id: 'a', tags: ['y'], archived_at: null });
  });

  it('keeps at most max rows, starting again past it', () => {
    const rows = new JsonRows<{ id: string }>([], 2);
    const a = rows.row('a', '{"id":"a"}');
    rows.row('b', '{"id":"b"}');
    expect(rows.row('a', '{"id":"a"}')).toBe(a);
    rows.row('c', '{"id":"c"}');
    expect(rows.row('a', '{"id":"a"}')).not.toBe(a);
  });
});
