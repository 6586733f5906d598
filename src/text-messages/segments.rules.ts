/**
 * How many SMS segments a text takes (what a provider bills and a phone reassembles). Pure.
 *
 * GSM 03.38's 7-bit alphabet when every character is in it: 160 septets in one segment; a longer
 * text is split into segments of 153 (7 septets go to the concatenation header). The extension
 * table's characters (^ { } \ [ ~ ] | € and form feed) take two septets (escape + character), and
 * an escape pair is never split across two segments. Any other character makes the whole text
 * UCS-2: 70 UTF-16 code units in one segment, else 67 per segment, a surrogate pair (an emoji)
 * never split.
 */
export type SmsEncoding = 'gsm7' | 'ucs2';

export interface SegmentCount {
  encoding: SmsEncoding;
  /** Septets (GSM-7) or UTF-16 code units (UCS-2). */
  units: number;
  segments: number;
  /** Units per segment for a text of this length: 160/153 or 70/67. */
  perSegment: number;
}

const GSM_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM_EXTENSION = '^{}\\[~]|€\f';
const BASIC = new Set(GSM_BASIC);
const EXTENSION = new Set(GSM_EXTENSION);

/** The septets of each character of `text`, or undefined when one is outside GSM-7. */
function gsmSeptets(text: string): number[] | undefined {
  const septets: number[] = [];
  for (const char of text) {
    if (BASIC.has(char)) septets.push(1);
    else if (EXTENSION.has(char)) septets.push(2);
    else return undefined;
  }
  return septets;
}

/** Packs items of the given sizes into segments of `size`, never splitting an item. */
function pack(sizes: number[], size: number): number {
  let segments = 1;
  let used = 0;
  for (const item of sizes) {
    if (used + item > size) {
      segments += 1;
      used = 0;
    }
    used += item;
  }
  return segments;
}

export function countSegments(text: string): SegmentCount {
  const septets = gsmSeptets(text);
  if (septets) {
    const units = septets.reduce((sum, n) => sum + n, 0);
    if (units === 0) return { encoding: 'gsm7', units, segments: 0, perSegment: 160 };
    if (units <= 160) return { encoding: 'gsm7', units, segments: 1, perSegment: 160 };
    return { encoding: 'gsm7', units, segments: pack(septets, 153), perSegment: 153 };
  }
  // UCS-2 as phones send it: UTF-16, an astral character (emoji) is a surrogate pair of two units.
  const sizes = [...text].map((char) => char.length);
  const units = text.length;
  if (units <= 70) return { encoding: 'ucs2', units, segments: 1, perSegment: 70 };
  return { encoding: 'ucs2', units, segments: pack(sizes, 67), perSegment: 67 };
}
