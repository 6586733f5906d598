import type en from './en.js';

export default {
  confirmed: '{workspace}: تم حجز {what} في {when}، {location}. للإدارة: {link}',
  rescheduled: '{workspace}: نُقل {what} إلى {when}، {location}. للإدارة: {link}',
  canceled: '{workspace}: أُلغي {what} في {when}. {link}',
  reminder: '{workspace}: تذكير، {what} في {when}، {location}. أرسل C للتأكيد. {link}',
  test: '{workspace}: رسالة تجريبية. إن قرأتها فالرسائل تصل إلى عملائك.',
  waitlist_offer: '{workspace}: {what} في {when} متاح لك حتى {until}. احجز: {link}',
  stop_footer: 'أرسل STOP لإيقاف الرسائل',
  reply_confirmed: '{workspace}: شكرًا، تم تأكيد {when}.',
  reply_canceled: '{workspace}: أُلغي حجزك في {when}.',
  reply_cancel_refused: '{workspace}: لم يعد ممكنًا إلغاء هذا الحجز برسالة. تواصل معنا: {contact}',
  reply_no_booking: '{workspace}: لا يوجد حجز قادم لهذا الرقم.',
  reply_stopped: '{workspace}: لن تصلك رسائل بعد الآن. أرسل START لاستئنافها.',
  reply_started: '{workspace}: ستصلك الرسائل من جديد. أرسل STOP لإيقافها.',
} satisfies Record<keyof typeof en, string>;
