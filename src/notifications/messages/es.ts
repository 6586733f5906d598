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
  subject_test: 'Correo de prueba de {workspace}',
  intro_confirmed: 'su reserva está confirmada.',
  intro_rescheduled: 'su reserva se ha cambiado a una nueva hora.',
  intro_canceled: 'su reserva se ha cancelado.',
  intro_completed: 'gracias por su visita. Esperamos verle de nuevo.',
  intro_reminder: 'le recordamos su reserva.',
  intro_staff_new: 'se ha hecho una reserva con usted.',
  intro_staff_changed: 'una de sus reservas ha cambiado.',
  intro_staff_canceled: 'una de sus reservas se ha cancelado.',
  intro_test:
    'este es un correo de prueba desde Ajustes → Notificaciones. Si puede leerlo, los correos llegan a sus destinatarios.',
  hello: 'Hola, {name}:',
  helloPlain: 'Hola:',
  when: 'Cuándo',
  what: 'Qué',
  with: 'Con',
  where: 'Dónde',
  customer: 'Cliente',
  manage: 'Ver, cambiar o cancelar su reserva',
  reminderIn:
    'Empieza dentro de {unit, select, day {{count, plural, one {# día} other {# días}}} hour {{count, plural, one {# hora} other {# horas}}} other {{count, plural, one {# minuto} other {# minutos}}}}.',
  attachment: 'El archivo de calendario adjunto (.ics) añade la reserva a su calendario o la actualiza allí.',
} satisfies MailCatalog;
