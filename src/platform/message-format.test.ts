import { describe, expect, it } from 'vitest';
import { catalogProblems, messageArguments, translator } from './message-format.js';

describe('messageArguments', () => {
  it('names plain and plural arguments, also inside branches', () => {
    expect(messageArguments('Times in {zone}')).toEqual(['zone']);
    expect(messageArguments('{n, plural, one {# place} other {# places, {zone}}}')).toEqual(['n', 'zone']);
    expect(messageArguments('No arguments.')).toEqual([]);
  });
});

describe('catalogProblems', () => {
  const source = { hello: 'Hello {name},', left: '{n, plural, one {# left} other {# left}}' };

  it('accepts a catalog with the same keys and arguments, whatever their plural forms', () => {
    const pl = { hello: 'Dzień dobry {name},', left: '{n, plural, one {#} few {#} many {#} other {#}}' };
    expect(catalogProblems(source, { pl })).toEqual([]);
  });

  it('names a missing key, an extra key, a renamed argument and a message that does not parse', () => {
    expect(catalogProblems(source, { de: { hello: 'Hallo {nme},', extra: 'x' } })).toEqual([
      'de lacks left',
      'de.hello uses {nme}, the source {name}',
      'de has extra, which the source does not',
    ]);
    expect(catalogProblems(source, { fr: { hello: 'Bonjour {name', left: '{n}' } })[0]).toMatch(
      /^fr\.hello does not parse/,
    );
  });
});

describe('translator', () => {
  it('applies the plural rules of the language', () => {
    const catalog = {
      left: '{n, plural, one {Zostało # miejsce} few {Zostały # miejsca} many {Zostało # miejsc} other {Zostało # miejsca}}',
    };
    const t = translator('test.pl', catalog, 'pl-PL');
    expect([1, 3, 5, 22].map((n) => t('left', { n }))).toEqual([
      'Zostało 1 miejsce',
      'Zostały 3 miejsca',
      'Zostało 5 miejsc',
      'Zostały 22 miejsca',
    ]);
  });

  it('formats numbers in the locale', () => {
    expect(translator('test.de', { n: '{n, number} Min.' }, 'de-DE')('n', { n: 12500 })).toBe('12.500 Min.');
  });
});
