import type { MailCatalog } from '../mail-texts.js';

export default {
  subject_confirmed: 'Reserva confirmada: {what}, {when}',
  subject_rescheduled: 'Reserva cambiada: {what}, ahora {when}',
  subject_canceled: 'Reserva cancelada: {what}, {when}',
  subject_completed: 'Gracias por su visita a {workspace}',
  subject_reminder: 'Recordatorio: {what}, {when}',
  subject_staff_new: 'Nueva reserva: {what}, {when}',
  subject_staff_changed: 'Reserva modificada: {what}, {when}',
  subject_staff_canceled: 'Reserva cancelada: {what}, {when}',
  subject_staff_calendar_edit: 'Cambiado en tu calendario: {what}, {when}',
  subject_test: 'Correo de prueba de {workspace}',
  subject_payment_received: 'Pago recibido: {amount} por {what}, {when}',
  subject_payment_refunded: 'Reembolso de {amount}: {what}, {when}',
  subject_payment_failed: 'Pago no realizado: {amount} por {what}, {when}',
  subject_waitlist_offer: 'Hay una hora libre para usted: {what}, {when}',
  intro_confirmed: 'su reserva está confirmada.',
  intro_rescheduled: 'su reserva se ha cambiado a una nueva hora.',
  intro_canceled: 'su reserva se ha cancelado.',
  intro_completed: 'gracias por su visita. Esperamos verle de nuevo.',
  intro_reminder: 'le recordamos su reserva.',
  intro_staff_new: 'se ha hecho una reserva con usted.',
  intro_staff_changed: 'una de sus reservas ha cambiado.',
  intro_staff_canceled: 'una de sus reservas se ha cancelado.',
  intro_staff_calendar_edit:
    'una de tus reservas se ha movido o eliminado en tu propio calendario. La reserva en sí no ha cambiado: ábrela en el panel para aplicar o ignorar el cambio.',
  intro_test:
    'este es un correo de prueba desde Ajustes → Notificaciones. Si puede leerlo, los correos llegan a sus destinatarios.',
  intro_payment_received: 'hemos recibido {amount}. Gracias.',
  intro_payment_refunded:
    'hemos reembolsado {amount} a su tarjeta. Puede tardar unos días en aparecer en su extracto.',
  intro_payment_failed: 'no hemos podido cobrar {amount} de su tarjeta. Por favor, contacte con nosotros.',
  intro_waitlist_offer:
    'se ha liberado una hora que esperaba. Se la guardamos hasta {until}: resérvela con el enlace de abajo o pasará a la siguiente persona en espera.',
  hello: 'Hola, {name}:',
  helloPlain: 'Hola:',
  when: 'Cuándo',
  what: 'Qué',
  with: 'Con',
  where: 'Dónde',
  customer: 'Cliente',
  manage: 'Ver, cambiar o cancelar su reserva',
  claim: 'Reservar esta hora',
  reminderIn:
    'Empieza dentro de {unit, select, day {{count, plural, one {# día} other {# días}}} hour {{count, plural, one {# hora} other {# horas}}} other {{count, plural, one {# minuto} other {# minutos}}}}.',
  attachment: 'El archivo de calendario adjunto (.ics) añade la reserva a su calendario o la actualiza allí.',
} satisfies MailCatalog;
