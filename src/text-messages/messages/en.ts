/**
 * The text messages in English, the source language: every other catalog in this folder has
 * exactly these keys and, in each message, these arguments (a test checks). ICU MessageFormat.
 * `what` is the booked services, `when` the start with its zone, `location` the place's name and
 * address, `link` the manage link, `workspace` the business, `contact` its phone or email.
 * Short on purpose: every character past 160 (70 with one non-GSM letter) is another segment.
 */
export default {
  confirmed: '{workspace}: {what} on {when}, {location} is booked. Manage: {link}',
  rescheduled: '{workspace}: {what} moved to {when}, {location}. Manage: {link}',
  canceled: '{workspace}: {what} on {when} is canceled. {link}',
  reminder: '{workspace}: reminder, {what} on {when}, {location}. Reply C to confirm. {link}',
  test: '{workspace}: a test text. If you can read it, texts reach your customers.',
  waitlist_offer: '{workspace}: {what} on {when} is free for you until {until}. Book: {link}',
  stop_footer: 'STOP to opt out',
  reply_confirmed: '{workspace}: thank you, {when} is confirmed.',
  reply_canceled: '{workspace}: your booking on {when} is canceled.',
  reply_cancel_refused:
    '{workspace}: this booking cannot be canceled by text any more. Please contact us: {contact}',
  reply_no_booking: '{workspace}: there is no upcoming booking for this number.',
  reply_stopped: '{workspace}: you will get no more texts. Reply START to get them again.',
  reply_started: '{workspace}: you will get texts again. Reply STOP to opt out.',
} as const satisfies Record<string, string>;
