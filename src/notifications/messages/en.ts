/**
 * The emails' texts in English, the source language: every other catalog in this folder has
 * exactly these keys and, in each message, these arguments (a test checks). ICU MessageFormat,
 * read by intl-messageformat. `what` is the booked services, `when` the formatted start with its
 * zone, `workspace` the business's name.
 */
export default {
  subject_confirmed: 'Booking confirmed: {what}, {when}',
  subject_rescheduled: 'Booking moved: {what}, now {when}',
  subject_canceled: 'Booking canceled: {what}, {when}',
  subject_completed: 'Thank you for your visit at {workspace}',
  subject_reminder: 'Reminder: {what}, {when}',
  subject_staff_new: 'New booking: {what}, {when}',
  subject_staff_changed: 'Booking changed: {what}, {when}',
  subject_staff_canceled: 'Booking canceled: {what}, {when}',
  subject_staff_calendar_edit: 'Changed in your calendar: {what}, {when}',
  subject_test: 'Test email from {workspace}',
  subject_payment_received: 'Payment received: {amount} for {what}, {when}',
  subject_payment_refunded: 'Refund of {amount}: {what}, {when}',
  subject_payment_failed: 'Payment not taken: {amount} for {what}, {when}',
  subject_waitlist_offer: 'A time is free for you: {what}, {when}',
  intro_confirmed: 'your booking is confirmed.',
  intro_rescheduled: 'your booking has been moved to a new time.',
  intro_canceled: 'your booking has been canceled.',
  intro_completed: 'thank you for your visit. We hope to see you again.',
  intro_reminder: 'a reminder of your booking.',
  intro_staff_new: 'a booking was made for you.',
  intro_staff_changed: 'one of your bookings has changed.',
  intro_staff_canceled: 'one of your bookings has been canceled.',
  intro_staff_calendar_edit:
    'one of your bookings was moved or deleted in your own calendar. The booking itself has not changed: open it in the panel to apply or ignore the change.',
  intro_test:
    'this is a test email from Settings → Notifications. If you can read it, emails reach their recipients.',
  intro_payment_received: 'we have received {amount}. Thank you.',
  intro_payment_refunded:
    'we have refunded {amount} to your card. It can take a few days to show on your statement.',
  intro_payment_failed: 'we could not charge {amount} to your card. Please contact us.',
  intro_waitlist_offer:
    'a time you were waiting for is free. It is held for you until {until}: book it with the link below, or it goes to the next person waiting.',
  hello: 'Hello {name},',
  helloPlain: 'Hello,',
  when: 'When',
  what: 'What',
  with: 'With',
  where: 'Where',
  customer: 'Customer',
  manage: 'See, change or cancel your booking',
  claim: 'Book this time',
  reminderIn:
    'It starts in {unit, select, day {{count, plural, one {# day} other {# days}}} hour {{count, plural, one {# hour} other {# hours}}} other {{count, plural, one {# minute} other {# minutes}}}}.',
  attachment: 'The attached calendar file (.ics) adds the booking to your calendar or updates it there.',
};
