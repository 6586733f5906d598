import { AppError, type FieldErrors, validationFailed } from '../errors.js';
import type { BookingView } from './bookings.repository.js';
import { type BookingContext, type CreateBookingInput, createBooking } from './bookings.service.js';

/** One appointment of a cart: its services, in order, at one start, with one staffer. */
export interface CartItem {
  service_uuids?: string[] | undefined;
  services?: { uuid: string }[] | undefined;
  reserved_on?: string | undefined;
  staffer_uuid?: string | null | undefined;
}

export interface CartInput
  extends Omit<CreateBookingInput, 'reserved_on' | 'service_uuid' | 'service_uuids' | 'staffer_uuid'> {
  items: CartItem[];
}

/**
 * POST /bookings/cart: each item becomes one booking holding all of its services
 * (durations add up, one order line per service), for the one customer of the cart. All items
 * commit together or none does: the bookings are made in one unit of work, so a refused item
 * leaves no booking, customer or event of the others behind. A 422 or 409 names the item:
 * `items.1.service_uuids.0`, `items.0.reserved_on`.
 */
export async function createCartBookings(ctx: BookingContext, input: CartInput): Promise<BookingView[]> {
  const errors: FieldErrors = {};
  const serviceLists = input.items.map((item, index) => {
    const ids = item.service_uuids ?? item.services?.map((service) => service.uuid) ?? [];
    if (ids.length === 0)
      errors[`items.${index}.service_uuids`] = ['Each item needs service_uuids or services.'];
    return ids;
  });
  if (Object.keys(errors).length > 0) throw validationFailed(errors);

  // createBooking runs each item on `unit`, a unit of work of this one transaction.
  return ctx.uow.runJoined(ctx.workspace.id, async (tx, unit) => {
    const inner: BookingContext = { ...ctx, db: tx, uow: unit };
    const bookings: BookingView[] = [];
    for (const [index, item] of input.items.entries()) {
      const { items: _items, ...customer } = input;
      try {
        bookings.push(
          await createBooking(inner, {
            ...customer,
            reserved_on: item.reserved_on,
            service_uuid: serviceLists[index]![0],
            service_uuids: serviceLists[index],
            staffer_uuid: item.staffer_uuid,
          }),
        );
      } catch (error) {
        throw error instanceof AppError ? onItem(error, index) : error;
      }
    }
    return bookings;
  });
}

/** The same error with its fields named inside the item: service_uuid.1 -> items.0.service_uuids.1. */
function onItem(error: AppError, index: number): AppError {
  if (!error.errors) return error;
  const errors: FieldErrors = {};
  for (const [field, messages] of Object.entries(error.errors)) {
    const inItem = ['reserved_on', 'staffer_uuid'].includes(field) || field.startsWith('service_uuid');
    const name = field.startsWith('service_uuid')
      ? field.replace(/^service_uuid(s)?/, 'service_uuids')
      : field;
    errors[inItem ? `items.${index}.${name}` : name] = messages;
  }
  return new AppError(error.statusCode, error.code, error.message, errors, error.headers);
}
