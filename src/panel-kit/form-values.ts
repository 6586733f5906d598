/**
 * Typed values read from a urlencoded form, shaped for the API's schemas: what the person typed
 * is kept where it is wrong, so the same schema names the same field with the same message.
 */

/** Whether the form sent the field at all (a PATCH-like form changes only what it sends). */
export function sent(body: unknown, name: string): boolean {
  return typeof body === 'object' && body !== null && name in body;
}

/**
 * A whole number typed in a form: the number; the text as typed when it is no number (the
 * schema then says the field must be an integer); undefined when left empty.
 */
export function formInteger(raw: string): number | string | undefined {
  const text = raw.trim();
  if (text === '') return undefined;
  return /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text;
}
