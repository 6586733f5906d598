import type en from './en.js';

export default {
  confirmed: '{workspace}: {what} el {when}, {location} está reservado. Gestionar: {link}',
  rescheduled: '{workspace}: {what} cambiado al {when}, {location}. Gestionar: {link}',
  canceled: '{workspace}: {what} el {when} está cancelado. {link}',
  reminder: '{workspace}: recordatorio, {what} el {when}, {location}. Responde C para confirmar. {link}',
  test: '{workspace}: un SMS de prueba. Si lo lees, los SMS llegan a tus clientes.',
  waitlist_offer: '{workspace}: {what} el {when} está libre para usted hasta las {until}. Reservar: {link}',
  stop_footer: 'STOP para darte de baja',
  reply_confirmed: '{workspace}: gracias, el {when} está confirmado.',
  reply_canceled: '{workspace}: tu reserva del {when} está cancelada.',
  reply_cancel_refused: '{workspace}: esta reserva ya no se puede cancelar por SMS. Contáctanos: {contact}',
  reply_no_booking: '{workspace}: no hay ninguna reserva próxima para este número.',
  reply_stopped: '{workspace}: no recibirás más SMS. Responde START para volver a recibirlos.',
  reply_started: '{workspace}: volverás a recibir SMS. Responde STOP para darte de baja.',
} satisfies Record<keyof typeof en, string>;
