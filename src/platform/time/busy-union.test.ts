import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BUSY_PIECE_MS, type Interval, mergeBusy, piecesOf } from './busy-union.js';

const H = 3_600_000;
const at = (hours: number) => Date.parse('2026-03-29T00:00:00Z') + hours * H;
const span = (from: number, to: number): Interval => ({ start: at(from), end: at(to) });

describe('mergeBusy', () => {
  it.each([
    ['nothing', [], []],
    ['one span', [span(9, 10)], [span(9, 10)]],
    ['overlapping, out of order', [span(10, 12), span(9, 11)], [span(9, 12)]],
    ['touching', [span(9, 10), span(10, 11)], [span(9, 11)]],
    ['one inside another', [span(8, 18), span(9, 10), span(12, 13)], [span(8, 18)]],
    ['a gap kept', [span(9, 10), span(10.5, 11)], [span(9, 10), span(10.5, 11)]],
    ['empty and inverted spans dropped', [span(9, 9), span(11, 10), span(12, 13)], [span(12, 13)]],
  ])('%s', (_name, input, expected) => {
    expect(mergeBusy(input)).toEqual(expected);
  });

  it('does not change the spans it is given', () => {
    const input = [span(10, 12), span(9, 11)];
    mergeBusy(input);
    expect(input).toEqual([span(10, 12), span(9, 11)]);
  });

  // Minute-grained spans over three days, so overlaps, touches and gaps all occur.
  const spans = fc.array(
    fc
      .tuple(fc.integer({ min: 0, max: 3 * 1440 }), fc.integer({ min: 0, max: 600 }))
      .map(([start, length]): Interval => ({ start: start * 60_000, end: (start + length) * 60_000 })),
    { maxLength: 60 },
  );

  it('blocks exactly the instants some span blocks, in sorted, disjoint, non-touching blocks', () => {
    fc.assert(
      fc.property(spans, fc.integer({ min: 0, max: 4 * 1440 * 2 }), (input, half) => {
        const blocks = mergeBusy(input);
        for (let i = 1; i < blocks.length; i++) expect(blocks[i]!.start).toBeGreaterThan(blocks[i - 1]!.end);
        for (const b of blocks) expect(b.end).toBeGreaterThan(b.start);
        // Any instant (half-minute grid: inside spans and on their edges) is busy alike.
        const t = half * 30_000;
        const inSpan = input.some((s) => s.start <= t && t < s.end);
        const inBlock = blocks.some((b) => b.start <= t && t < b.end);
        expect(inBlock).toBe(inSpan);
      }),
      { numRuns: 500 },
    );
  });
});

describe('piecesOf', () => {
  it('cuts a span longer than a day into consecutive pieces of a day at most', () => {
    const long = { start: at(0), end: at(50), title: 'Holiday' };
    expect(piecesOf(long)).toEqual([
      { start: at(0), end: at(24), title: 'Holiday' },
      { start: at(24), end: at(48), title: 'Holiday' },
      { start: at(48), end: at(50), title: 'Holiday' },
    ]);
    expect(piecesOf(span(9, 10))).toEqual([span(9, 10)]);
    expect(piecesOf({ start: 0, end: BUSY_PIECE_MS })).toEqual([{ start: 0, end: BUSY_PIECE_MS }]);
  });
});
