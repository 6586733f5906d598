import { IntlMessageFormat } from 'intl-messageformat';

/**
 * Messages in catalogs of ICU MessageFormat strings ("{n, plural, one {# place} other {# places}}"),
 * formatted by intl-messageformat, so plural forms come from Intl.PluralRules of the language and
 * numbers from Intl.NumberFormat of the locale. A feature keeps one catalog per language (English
 * the source) and reads it through `translator`.
 */
export type MessageValues = Record<string, string | number>;
export type Translate<Key extends string> = (key: Key, values?: MessageValues) => string;

type Ast = ReturnType<IntlMessageFormat['getAst']>;

const compiled = new Map<string, IntlMessageFormat>();

/**
 * Formats `catalog`'s messages in `locale` (the Intl locale: digits, separators, plural rules).
 * Each message is parsed once per locale and kept: parsing costs more than formatting, and the
 * catalogs are small and fixed.
 */
export function translator<Key extends string>(
  catalogName: string,
  catalog: Record<Key, string>,
  locale: string,
): Translate<Key> {
  return (key, values) => {
    const id = `${catalogName}\u0000${locale}\u0000${key}`;
    let format = compiled.get(id);
    if (!format) {
      format = new IntlMessageFormat(catalog[key], locale);
      compiled.set(id, format);
    }
    return String(format.format(values));
  };
}

/**
 * The names of the arguments a message uses, sorted (`{when}`, the `n` of a plural, also inside
 * plural branches). Catalogs of one feature must agree on them language by language, or a value
 * would go missing; their kinds may differ (a number can be plain in one language and a plural
 * in another). Throws on a message intl-messageformat cannot parse.
 */
export function messageArguments(message: string): string[] {
  const found = new Set<string>();
  const walk = (elements: Ast): void => {
    for (const element of elements) {
      // Type 0 is literal text, whose value is the text itself, not a name.
      if (element.type !== 0 && 'value' in element && typeof element.value === 'string')
        found.add(element.value);
      if ('options' in element) for (const option of Object.values(element.options)) walk(option.value);
      if ('children' in element) walk(element.children);
    }
  };
  walk(new IntlMessageFormat(message, 'en').getAst());
  return [...found].sort();
}

/**
 * What is wrong with a feature's catalogs against its source (English): a key missing or extra in
 * a language, a message that does not parse, or one whose arguments differ from the source's.
 * Empty when every language can stand in for the source.
 */
export function catalogProblems(
  source: Record<string, string>,
  catalogs: Record<string, Record<string, string>>,
): string[] {
  const problems: string[] = [];
  const argumentsOf = (lang: string, key: string, message: string): string[] | undefined => {
    try {
      return messageArguments(message);
    } catch (error) {
      problems.push(`${lang}.${key} does not parse: ${(error as Error).message}`);
      return undefined;
    }
  };
  const expected = new Map(
    Object.entries(source).map(([key, message]) => [key, argumentsOf('source', key, message)]),
  );
  for (const [lang, catalog] of Object.entries(catalogs)) {
    for (const key of expected.keys()) if (!(key in catalog)) problems.push(`${lang} lacks ${key}`);
    for (const [key, message] of Object.entries(catalog)) {
      if (!expected.has(key)) {
        problems.push(`${lang} has ${key}, which the source does not`);
        continue;
      }
      const found = argumentsOf(lang, key, message);
      const wanted = expected.get(key);
      if (found && wanted && found.join(',') !== wanted.join(',')) {
        problems.push(`${lang}.${key} uses {${found.join('}, {')}}, the source {${wanted.join('}, {')}}`);
      }
    }
  }
  return problems;
}
