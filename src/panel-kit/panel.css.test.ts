import { describe, expect, it } from 'vitest';
import { PANEL_CSS } from './panel.css.js';

describe('the panel stylesheet', () => {
  // Every feature appends its rules; one unclosed @media block (a merge once left two) silently
  // swallows every rule after it, the calendar's grid geometry included.
  it('closes every block it opens', () => {
    let depth = 0;
    for (const char of PANEL_CSS) {
      if (char === '{') depth++;
      if (char === '}') depth--;
      expect(depth).toBeGreaterThanOrEqual(0);
    }
    expect(depth).toBe(0);
  });
});
