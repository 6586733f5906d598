import type { MailCatalog } from '../mail-texts.js';

export default {
  subject_confirmed: 'Reserva confirmada: {what}, {when}',
  subject_rescheduled: 'Reserva alterada: {what}, agora {when}',
  subject_canceled: 'Reserva cancelada: {what}, {when}',
  subject_completed: 'Obrigado pela sua visita a {workspace}',
  subject_reminder: 'Lembrete: {what}, {when}',
  subject_staff_new: 'Nova reserva: {what}, {when}',
  subject_staff_changed: 'Reserva alterada: {what}, {when}',
  subject_staff_canceled: 'Reserva cancelada: {what}, {when}',
  subject_staff_calendar_edit: 'Alterado no seu calendário: {what}, {when}',
  subject_test: 'E-mail de teste de {workspace}',
  subject_payment_received: 'Pagamento recebido: {amount} por {what}, {when}',
  subject_payment_refunded: 'Reembolso de {amount}: {what}, {when}',
  subject_payment_failed: 'Pagamento não efetuado: {amount} por {what}, {when}',
  subject_waitlist_offer: 'Há um horário livre para si: {what}, {when}',
  intro_confirmed: 'a sua reserva está confirmada.',
  intro_rescheduled: 'a sua reserva foi mudada para um novo horário.',
  intro_canceled: 'a sua reserva foi cancelada.',
  intro_completed: 'obrigado pela sua visita. Esperamos vê-lo novamente.',
  intro_reminder: 'um lembrete da sua reserva.',
  intro_staff_new: 'foi feita uma reserva consigo.',
  intro_staff_changed: 'uma das suas reservas foi alterada.',
  intro_staff_canceled: 'uma das suas reservas foi cancelada.',
  intro_staff_calendar_edit:
    'uma das suas marcações foi movida ou eliminada no seu próprio calendário. A marcação em si não mudou: abra-a no painel para aplicar ou ignorar a alteração.',
  intro_test:
    'este é um e-mail de teste de Definições → Notificações. Se o consegue ler, os e-mails chegam aos destinatários.',
  intro_payment_received: 'recebemos {amount}. Obrigado.',
  intro_payment_refunded:
    'reembolsámos {amount} no seu cartão. Pode levar alguns dias a aparecer no extrato.',
  intro_payment_failed: 'não conseguimos cobrar {amount} no seu cartão. Por favor, contacte-nos.',
  intro_waitlist_offer:
    'ficou livre um horário que esperava. Está reservado para si até {until}: reserve-o com a ligação abaixo, ou passará para a próxima pessoa em espera.',
  hello: 'Olá {name},',
  helloPlain: 'Olá,',
  when: 'Quando',
  what: 'O quê',
  with: 'Com',
  where: 'Onde',
  customer: 'Cliente',
  manage: 'Ver, alterar ou cancelar a sua reserva',
  claim: 'Reservar este horário',
  reminderIn:
    'Começa dentro de {unit, select, day {{count, plural, one {# dia} other {# dias}}} hour {{count, plural, one {# hora} other {# horas}}} other {{count, plural, one {# minuto} other {# minutos}}}}.',
  attachment: 'O ficheiro de calendário anexo (.ics) adiciona a reserva ao seu calendário ou atualiza-a lá.',
} satisfies MailCatalog;
