import type en from './en.js';

export default {
  confirmed: '{workspace}: {what} em {when}, {location} está reservado. Gerir: {link}',
  rescheduled: '{workspace}: {what} mudado para {when}, {location}. Gerir: {link}',
  canceled: '{workspace}: {what} em {when} foi cancelado. {link}',
  reminder: '{workspace}: lembrete, {what} em {when}, {location}. Responda C para confirmar. {link}',
  test: '{workspace}: um SMS de teste. Se o lê, os SMS chegam aos seus clientes.',
  waitlist_offer: '{workspace}: {what} em {when} está livre para si até {until}. Reservar: {link}',
  stop_footer: 'STOP para cancelar',
  reply_confirmed: '{workspace}: obrigado, {when} está confirmado.',
  reply_canceled: '{workspace}: a sua reserva de {when} foi cancelada.',
  reply_cancel_refused:
    '{workspace}: esta reserva já não pode ser cancelada por SMS. Contacte-nos: {contact}',
  reply_no_booking: '{workspace}: não há nenhuma reserva próxima para este número.',
  reply_stopped: '{workspace}: não receberá mais SMS. Responda START para voltar a recebê-los.',
  reply_started: '{workspace}: voltará a receber SMS. Responda STOP para cancelar.',
} satisfies Record<keyof typeof en, string>;
