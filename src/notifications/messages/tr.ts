import type { MailCatalog } from '../mail-texts.js';

export default {
  subject_confirmed: 'Randevu onaylandı: {what}, {when}',
  subject_rescheduled: 'Randevu taşındı: {what}, yeni saat {when}',
  subject_canceled: 'Randevu iptal edildi: {what}, {when}',
  subject_completed: '{workspace} ziyaretiniz için teşekkürler',
  subject_reminder: 'Hatırlatma: {what}, {when}',
  subject_staff_new: 'Yeni randevu: {what}, {when}',
  subject_staff_changed: 'Randevu değişti: {what}, {when}',
  subject_staff_canceled: 'Randevu iptal edildi: {what}, {when}',
  subject_staff_calendar_edit: 'Takviminizde değişti: {what}, {when}',
  subject_test: '{workspace} test e-postası',
  subject_payment_received: 'Ödeme alındı: {what} için {amount}, {when}',
  subject_payment_refunded: '{amount} iade: {what}, {when}',
  subject_payment_failed: 'Ödeme alınamadı: {what} için {amount}, {when}',
  subject_waitlist_offer: 'Sizin için bir saat boşaldı: {what}, {when}',
  intro_confirmed: 'Randevunuz onaylandı.',
  intro_rescheduled: 'Randevunuz yeni bir saate taşındı.',
  intro_canceled: 'Randevunuz iptal edildi.',
  intro_completed: 'Ziyaretiniz için teşekkür ederiz. Sizi yeniden görmeyi umuyoruz.',
  intro_reminder: 'Randevunuzu hatırlatmak isteriz.',
  intro_staff_new: 'Sizin için bir randevu oluşturuldu.',
  intro_staff_changed: 'Randevularınızdan biri değişti.',
  intro_staff_canceled: 'Randevularınızdan biri iptal edildi.',
  intro_staff_calendar_edit:
    'randevularınızdan biri kendi takviminizde taşındı veya silindi. Randevunun kendisi değişmedi: değişikliği uygulamak ya da yok saymak için panelde açın.',
  intro_test:
    'Bu, Ayarlar → Bildirimler’den gönderilen bir test e-postasıdır. Okuyabiliyorsanız e-postalar alıcılarına ulaşıyor.',
  intro_payment_received: '{amount} tutarını aldık. Teşekkür ederiz.',
  intro_payment_refunded:
    '{amount} tutarını kartınıza iade ettik. Ekstrenizde görünmesi birkaç gün sürebilir.',
  intro_payment_failed: 'kartınızdan {amount} tahsil edemedik. Lütfen bizimle iletişime geçin.',
  intro_waitlist_offer:
    'beklediğiniz bir saat boşaldı. {until} saatine kadar sizin için ayrıldı: aşağıdaki bağlantıyla ayırtın, yoksa sıradaki kişiye geçer.',
  hello: 'Merhaba {name},',
  helloPlain: 'Merhaba,',
  when: 'Ne zaman',
  what: 'Ne',
  with: 'Çalışan',
  where: 'Nerede',
  customer: 'Müşteri',
  manage: 'Randevunuzu görün, değiştirin veya iptal edin',
  claim: 'Bu saati ayırt',
  reminderIn:
    '{unit, select, day {{count, plural, one {# gün} other {# gün}}} hour {{count, plural, one {# saat} other {# saat}}} other {{count, plural, one {# dakika} other {# dakika}}}} sonra başlıyor.',
  attachment: 'Ekteki takvim dosyası (.ics) randevuyu takviminize ekler veya orada günceller.',
} satisfies MailCatalog;
