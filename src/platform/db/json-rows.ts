/**
 * Rows read as one JSON text each (`row_to_json(t)::text`), kept parsed by id. For rows read on
 * every request that seldom change (a request's workspace, a workspace's locations): decoding
 * each column of each row costs the client more than the rest of a small request, while one text
 * column costs nothing to decode, and an unchanged row is not parsed again. The text is compared
 * with the text the kept row was parsed from, so a change in any column is seen at once. Kept
 * rows are frozen: requests share them.
 */
export class JsonRows<Row> {
  private readonly kept = new Map<string, { text: string; row: Row }>();

  /**
   * @param dateColumns the timestamp columns, which JSON carries as text and a row as Date
   * @param max how many rows are kept; past it the set starts again (rows are parsed again once)
   */
  constructor(
    private readonly dateColumns: readonly string[],
    private readonly max = 1000,
  ) {}

  /** The row of `id` whose JSON text is `text`, as selectAll would give it. */
  row(id: string, text: string): Row {
    const kept = this.kept.get(id);
    if (kept !== undefined && kept.text === text) return kept.row;
    const parsed = JSON.parse(text) as Record<string, unknown>;
    for (const column of this.dateColumns) {
      const value = parsed[column];
      if (typeof value === 'string') parsed[column] = new Date(value);
    }
    const row = deepFreeze(parsed) as Row;
    if (kept === undefined && this.kept.size >= this.max) this.kept.clear();
    this.kept.set(id, { text, row });
    return row;
  }
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !(value instanceof Date) && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
