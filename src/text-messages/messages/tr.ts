import type en from './en.js';

export default {
  confirmed: '{workspace}: {what}, {when}, {location} rezerve edildi. Yönet: {link}',
  rescheduled: '{workspace}: {what} {when} tarihine alındı, {location}. Yönet: {link}',
  canceled: '{workspace}: {what}, {when} iptal edildi. {link}',
  reminder: '{workspace}: hatırlatma, {what}, {when}, {location}. Onaylamak için C yazın. {link}',
  test: '{workspace}: bir test SMS’i. Bunu okuyorsanız SMS’ler müşterilerinize ulaşıyor.',
  waitlist_offer: '{workspace}: {what}, {when} saati {until} saatine kadar sizin. Ayırt: {link}',
  stop_footer: 'Ayrılmak için STOP',
  reply_confirmed: '{workspace}: teşekkürler, {when} onaylandı.',
  reply_canceled: '{workspace}: {when} rezervasyonunuz iptal edildi.',
  reply_cancel_refused: '{workspace}: bu rezervasyon artık SMS ile iptal edilemez. Bize ulaşın: {contact}',
  reply_no_booking: '{workspace}: bu numara için yaklaşan rezervasyon yok.',
  reply_stopped: '{workspace}: artık SMS almayacaksınız. Tekrar almak için START yazın.',
  reply_started: '{workspace}: yeniden SMS alacaksınız. Ayrılmak için STOP yazın.',
} satisfies Record<keyof typeof en, string>;
