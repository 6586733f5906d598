import { FORM_KEY_FIELD, newFormKey } from '../http/idempotency.js';

/**
 * The hidden idempotency key of a form that creates or changes something (read by
 * `redirectOnce`): a fresh one per rendered form unless the form carries one through several
 * steps (the booking page's details and confirm steps keep the key of the details form).
 */
export function FormKey({ value }: { value?: string | undefined }) {
  return <input type="hidden" name={FORM_KEY_FIELD} value={value ?? newFormKey()} />;
}
