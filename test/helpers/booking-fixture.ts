import type { TestApp } from './build-test-app.js';
import {
  createLocation,
  createPaymentAccount,
  createService,
  createStaffer,
  EVERY_DAY_9_TO_17,
} from './factories.js';

/**
 * A small studio for booking tests: one Berlin location, an individual 60-minute service, a
 * group class of capacity 3, two staffers working 09:00-17:00 every day, one payment account.
 */
export async function bookingFixture(t: TestApp) {
  const ws = t.workspace.id;
  const location = await createLocation(t.db, ws, { timezone: 'Europe/Berlin' });
  const haircut = await createService(t.db, ws, [location.id], {
    name: 'Haircut',
    price: 9000,
    durationMinutes: 60,
  });
  const color = await createService(t.db, ws, [location.id], {
    name: 'Color',
    price: 5000,
    durationMinutes: 30,
  });
  const yoga = await createService(t.db, ws, [location.id], {
    name: 'Yoga class',
    price: 1500,
    durationMinutes: 60,
    capacity: 3,
  });
  const services = [haircut.id, color.id, yoga.id];
  const anna = await createStaffer(t.db, ws, location.id, services, {
    firstName: 'Anna',
    weekly: EVERY_DAY_9_TO_17,
  });
  const ben = await createStaffer(t.db, ws, location.id, services, {
    firstName: 'Ben',
    weekly: EVERY_DAY_9_TO_17,
  });
  const cash = await createPaymentAccount(t.db, ws, location.id, { name: 'Cash desk' });
  return { location, haircut, color, yoga, anna, ben, cash };
}

export type BookingFixture = Awaited<ReturnType<typeof bookingFixture>>;
