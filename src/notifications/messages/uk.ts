import type { MailCatalog } from '../mail-texts.js';

export default {
  subject_confirmed: 'Бронювання підтверджено: {what}, {when}',
  subject_rescheduled: 'Бронювання перенесено: {what}, тепер {when}',
  subject_canceled: 'Бронювання скасовано: {what}, {when}',
  subject_completed: 'Дякуємо за візит до {workspace}',
  subject_reminder: 'Нагадування: {what}, {when}',
  subject_staff_new: 'Нове бронювання: {what}, {when}',
  subject_staff_changed: 'Бронювання змінено: {what}, {when}',
  subject_staff_canceled: 'Бронювання скасовано: {what}, {when}',
  subject_test: 'Тестовий лист від {workspace}',
  intro_confirmed: 'ваше бронювання підтверджено.',
  intro_rescheduled: 'ваше бронювання перенесено на новий час.',
  intro_canceled: 'ваше бронювання скасовано.',
  intro_completed: 'дякуємо за візит. Сподіваємося побачити вас знову.',
  intro_reminder: 'нагадуємо про ваше бронювання.',
  intro_staff_new: 'для вас створено бронювання.',
  intro_staff_changed: 'одне з ваших бронювань змінилося.',
  intro_staff_canceled: 'одне з ваших бронювань скасовано.',
  intro_test:
    'це тестовий лист із Налаштування → Сповіщення. Якщо ви його читаєте, листи доходять до адресатів.',
  hello: 'Вітаємо, {name}!',
  helloPlain: 'Вітаємо!',
  when: 'Коли',
  what: 'Що',
  with: 'Спеціаліст',
  where: 'Де',
  customer: 'Клієнт',
  manage: 'Переглянути, змінити або скасувати бронювання',
  reminderIn:
    'Початок через {unit, select, day {{count, plural, one {# день} few {# дні} many {# днів} other {# дня}}} hour {{count, plural, one {# годину} few {# години} many {# годин} other {# години}}} other {{count, plural, one {# хвилину} few {# хвилини} many {# хвилин} other {# хвилини}}}}.',
  attachment: 'Доданий файл календаря (.ics) додає бронювання до вашого календаря або оновлює його там.',
} satisfies MailCatalog;
