import { describe, expect, it } from 'vitest';
import { countSegments } from './segments.rules.js';

const rep = (text: string, n: number) => text.repeat(n);

describe('SMS segments', () => {
  it.each([
    ['', 'gsm7', 0, 0],
    ['Hello', 'gsm7', 5, 1],
    [rep('a', 160), 'gsm7', 160, 1],
    [rep('a', 161), 'gsm7', 161, 2],
    [rep('a', 306), 'gsm7', 306, 2],
    [rep('a', 307), 'gsm7', 307, 3],
    // GSM-7's own accented letters and symbols stay 7-bit.
    ['Grüße aus Köln, café à 10€', 'gsm7', 27, 1],
    ['£$¥èéùìòÇØøÅåÆæßÉ¿¡§ΔΦΓΛΩΠΨΣΘΞ', 'gsm7', 30, 1],
    // Extension characters count twice.
    [rep('€', 80), 'gsm7', 160, 1],
    [rep('€', 81), 'gsm7', 162, 2],
    [`${rep('a', 159)}[`, 'gsm7', 161, 2],
    // An escape pair is never split: 152 + "{" (2) does not fit 153, so it starts segment 2.
    [`${rep('a', 152)}{${rep('a', 152)}`, 'gsm7', 306, 3],
    [`${rep('a', 151)}{${rep('a', 153)}`, 'gsm7', 306, 2],
    // One character outside GSM-7 makes the whole text UCS-2.
    ['Hello ç', 'ucs2', 7, 1], // ç (lower case) is not in GSM-7, only Ç
    ['Zażółć gęślą jaźń', 'ucs2', 17, 1],
    ['Привет', 'ucs2', 6, 1],
    ['مرحبا', 'ucs2', 5, 1],
    [rep('я', 70), 'ucs2', 70, 1],
    [rep('я', 71), 'ucs2', 71, 2],
    [rep('я', 134), 'ucs2', 134, 2],
    [rep('я', 135), 'ucs2', 135, 3],
    // An emoji is a surrogate pair: two units, never split across segments.
    [rep('😀', 35), 'ucs2', 70, 1],
    [`${rep('я', 66)}😀${rep('я', 66)}`, 'ucs2', 134, 3],
    [`${rep('я', 65)}😀${rep('я', 67)}`, 'ucs2', 134, 2],
  ])('%#: %j is %s, %i units, %i segments', (text, encoding, units, segments) => {
    const count = countSegments(text);
    expect(count.encoding).toBe(encoding);
    expect(count.units).toBe(units);
    expect(count.segments).toBe(segments);
  });

  it('says how many units fit a segment', () => {
    expect(countSegments('a').perSegment).toBe(160);
    expect(countSegments(rep('a', 200)).perSegment).toBe(153);
    expect(countSegments('ф').perSegment).toBe(70);
    expect(countSegments(rep('ф', 71)).perSegment).toBe(67);
  });
});
