import type en from './en.js';

export default {
  confirmed: '{workspace}: {what}, {when}, {location} заброньовано. Керувати: {link}',
  rescheduled: '{workspace}: {what} перенесено на {when}, {location}. Керувати: {link}',
  canceled: '{workspace}: {what}, {when} скасовано. {link}',
  reminder: '{workspace}: нагадування, {what}, {when}, {location}. Відповідайте C для підтвердження. {link}',
  test: '{workspace}: тестове SMS. Якщо ви його читаєте, SMS доходять до клієнтів.',
  waitlist_offer: '{workspace}: {what} {when} вільний для вас до {until}. Бронювати: {link}',
  stop_footer: 'STOP, щоб відписатися',
  reply_confirmed: '{workspace}: дякуємо, {when} підтверджено.',
  reply_canceled: '{workspace}: ваше бронювання на {when} скасовано.',
  reply_cancel_refused:
    '{workspace}: це бронювання вже не можна скасувати через SMS. Зв’яжіться з нами: {contact}',
  reply_no_booking: '{workspace}: для цього номера немає майбутніх бронювань.',
  reply_stopped: '{workspace}: ви більше не отримуватимете SMS. Відповідайте START, щоб отримувати знову.',
  reply_started: '{workspace}: ви знову отримуватимете SMS. Відповідайте STOP, щоб відписатися.',
} satisfies Record<keyof typeof en, string>;
