import { defineConfig } from 'vitest/config';

/**
 * The suite on a real Citus cluster (scripts/test-citus.sh sets it up and sets TEST_CITUS_URL).
 * Our own Citus tests, and existing suites run as they are against the one distributed database
 * (test/helpers/test-db.ts): the API end to end, every write route, the panel's and the booking
 * page's creates and changes, emails, calendar feeds, processes racing for one slot. A feature
 * joins by naming its tests here.
 */
export default defineConfig({
  test: {
    include: [
      'test/citus/**/*.test.ts',
      'test/e2e/spec-sequence.test.ts',
      'test/e2e/booking-webhooks.test.ts',
      'test/e2e/webhook-durability.test.ts',
      'test/concurrency/double-booking.test.ts',
      'test/concurrency/two-processes.test.ts',
      'test/concurrency/series-race.test.ts',
      'src/series/*.test.ts',
      'src/bookings/*.test.ts',
      'src/bookings/panel/*.test.ts',
      'test/booking-page/*.test.ts',
      'src/notifications/mail-delivery.test.ts',
      'src/calendar-feeds/calendar-feeds.test.ts',
      'src/webhooks/webhooks.api.test.ts',
      'src/webhooks/deliveries.api.test.ts',
      'src/customers/customers.test.ts',
      'src/customers/customer-data.test.ts',
      'src/reports/reports.test.ts',
      'src/reports/report-rollup.test.ts',
      'src/payments/payments.api.test.ts',
      'src/calendar-sync/calendar-writes.test.ts',
      'src/calendar-sync/calendar-sync.api.test.ts',
      'src/calendar-sync/calendar-readback.test.ts',
      'src/calendar-sync/calendar-override.panel.test.ts',
      'src/workspaces/panel/home.panel.test.ts',
      'src/locations/locations.test.ts',
      'src/resources/resources.test.ts',
      'src/resources/rentals.test.ts',
      'src/resources/resource-busy-blocks.test.ts',
      'src/resources/panel/resources.panel.test.ts',
      'src/app/api/api-auth.test.ts',
      'test/contract/list-order.test.ts',
      'test/compat/routes.test.ts',
      'src/waitlist/*.test.ts',
      'src/waitlist/panel/*.test.ts',
    ],
    testTimeout: 60_000,
    hookTimeout: 300_000,
    pool: 'forks',
    // One file at a time: the files share one database, and with it the delivery workers'
    // partition leases; a worker of one file would otherwise hold partitions another file's
    // worker waits for.
    fileParallelism: false,
    isolate: false,
  },
});
