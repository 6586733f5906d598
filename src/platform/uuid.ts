const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A uuid in its usual text form. Checked before a value reaches a uuid column: PostgreSQL refuses
 * anything else with an error, where a value that names nothing should be a plain "not found".
 */
export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}
