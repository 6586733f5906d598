import { AppError, type FieldErrors, validationFailed } from '../errors.js';
import type { BookingView } from './bookings.repository.js';
import { type BookingContext, type CreateBookingInput, createBooking } from './bookings.service.js';

/**
 * One appointment of a cart: its services, in order, at one start, with one staffer. Two shapes
 * are read, ours and the one real clients of the replaced service send:
 * `{reserved_on, service_uuids | services: [{uuid}], staffer_uuid}` and
 * `{datetime_start, services: [{service_uuid, staffer_uuid}]}`.
 */
export interface CartItem {
  service_uuids?: string[] | undefined;
  services?:
    | {
        uuid?: string | undefined;
        service_uuid?: string | undefined;
        staffer_uuid?: string | null | undefined;
      }[]
    | undefined;
  reserved_on?: string | undefined;
  datetime_start?: string | undefined;
  staffer_uuid?: string | null | undefined;
}

export interface CartInput
  extends Omit<CreateBookingInput, 'reserved_on' | 'service_uuid' | 'service_uuids' | 'staffer_uuid'> {
  items: CartItem[];
}

/** An item read into one shape: its services, start and staffer, or the errors of its fields. */
interface ReadItem {
  serviceIds: string[];
  start: string | undefined;
  stafferId: string | null | undefined;
}

/** Reads one item of either shape into its services, start and staffer (pure). */
export function readCartItem(item: CartItem, index: number, errors: FieldErrors): ReadItem {
  const at = `items.${index}`;
  const services = item.services ?? [];
  const serviceIds =
    item.service_uuids ??
    services.map((service, position) => {
      const id = service.uuid ?? service.service_uuid;
      if (id === undefined)
        errors[`${at}.services.${position}.service_uuid`] = ['Each service needs its uuid.'];
      if (
        service.uuid !== undefined &&
        service.service_uuid !== undefined &&
        service.uuid !== service.service_uuid
      ) {
        errors[`${at}.services.${position}.service_uuid`] = [
          'uuid and service_uuid name different services.',
        ];
      }
      return id ?? '';
    });
  if (serviceIds.length === 0) errors[`${at}.service_uuids`] = ['Each item needs service_uuids or services.'];

  if (
    item.reserved_on !== undefined &&
    item.datetime_start !== undefined &&
    item.reserved_on !== item.datetime_start
  ) {
    errors[`${at}.datetime_start`] = ['reserved_on and datetime_start name different times; send one.'];
  }
  const start = item.reserved_on ?? item.datetime_start;
  if (start === undefined) errors[`${at}.reserved_on`] = ['Each item needs reserved_on (or datetime_start).'];

  // One booking has one staffer: the item's, or the one its services name (all the same one).
  const named = new Set(
    services.map((service) => service.staffer_uuid).filter((id): id is string => typeof id === 'string'),
  );
  if (item.staffer_uuid) named.add(item.staffer_uuid);
  if (named.size > 1) {
    errors[`${at}.services`] = [
      'One booking has one staffer: give every service of an item the same staffer_uuid, or split the item.',
    ];
  }
  const stafferId = item.staffer_uuid ?? [...named][0] ?? (item.staffer_uuid === null ? null : undefined);
  return { serviceIds, start, stafferId };
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
  const items = input.items.map((item, index) => readCartItem(item, index, errors));
  if (Object.keys(errors).length > 0) throw validationFailed(errors);

  // createBooking runs each item on `unit`, a unit of work of this one transaction.
  return ctx.uow.runJoined(ctx.workspace.id, async (tx, unit) => {
    const inner: BookingContext = { ...ctx, db: tx, uow: unit };
    const bookings: BookingView[] = [];
    for (const index of input.items.keys()) {
      const { items: _items, ...customer } = input;
      try {
        bookings.push(
          await createBooking(inner, {
            ...customer,
            reserved_on: items[index]!.start,
            service_uuid: items[index]!.serviceIds[0],
            service_uuids: items[index]!.serviceIds,
            staffer_uuid: items[index]!.stafferId,
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
