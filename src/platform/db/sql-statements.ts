/**
 * Splits a migration's SQL into its statements, each without the `;` that ends it. Semicolons
 * inside quotes ('...', "..."), dollar-quoted bodies ($$...$$, $tag$...$tag$) and comments do not
 * split. Comments stay with the statement that follows them; a part holding only comments and
 * blanks is dropped.
 *
 * Why: on a distributed Citus database a statement planned in pieces (an UPDATE ... FROM a
 * subquery) is refused when it arrives in a string of several, so migrations run there one
 * statement at a time.
 */
export function splitStatements(text: string): string[] {
  const statements: string[] = [];
  let start = 0;
  let i = 0;
  while (i < text.length) {
    const rest = text.slice(i);
    if (rest.startsWith('--')) {
      const end = text.indexOf('\n', i);
      i = end === -1 ? text.length : end + 1;
    } else if (rest.startsWith('/*')) {
      const end = text.indexOf('*/', i + 2);
      i = end === -1 ? text.length : end + 2;
    } else if (text[i] === "'" || text[i] === '"') {
      i = closingQuote(text, i);
    } else if (text[i] === '$' && /^\$[A-Za-z_]*\$/.test(rest) && !/[\w$]/.test(text[i - 1] ?? '')) {
      const tag = /^\$[A-Za-z_]*\$/.exec(rest)![0];
      const end = text.indexOf(tag, i + tag.length);
      i = end === -1 ? text.length : end + tag.length;
    } else if (text[i] === ';') {
      statements.push(text.slice(start, i));
      i += 1;
      start = i;
    } else {
      i += 1;
    }
  }
  statements.push(text.slice(start));
  return statements.filter((statement) => !onlyComments(statement)).map((statement) => statement.trim());
}

/** The index just past the quote opened at `open`; a doubled quote inside is one character. */
function closingQuote(text: string, open: number): number {
  const quote = text[open]!;
  let i = open + 1;
  while (i < text.length) {
    if (text[i] === quote) {
      if (text[i + 1] === quote) i += 2;
      else return i + 1;
    } else {
      i += 1;
    }
  }
  return text.length;
}

function onlyComments(statement: string): boolean {
  return (
    statement
      .replace(/--[^\n]*/g, '')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .trim() === ''
  );
}
