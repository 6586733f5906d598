import type { MailCatalog } from '../mail-texts.js';

export default {
  subject_confirmed: 'Réservation confirmée : {what}, {when}',
  subject_rescheduled: 'Réservation déplacée : {what}, désormais {when}',
  subject_canceled: 'Réservation annulée : {what}, {when}',
  subject_completed: 'Merci pour votre visite chez {workspace}',
  subject_reminder: 'Rappel : {what}, {when}',
  subject_staff_new: 'Nouvelle réservation : {what}, {when}',
  subject_staff_changed: 'Réservation modifiée : {what}, {when}',
  subject_staff_canceled: 'Réservation annulée : {what}, {when}',
  subject_test: 'E-mail de test de {workspace}',
  intro_confirmed: 'votre réservation est confirmée.',
  intro_rescheduled: 'votre réservation a été déplacée à un nouvel horaire.',
  intro_canceled: 'votre réservation a été annulée.',
  intro_completed: 'merci pour votre visite. Nous espérons vous revoir bientôt.',
  intro_reminder: 'un rappel de votre réservation.',
  intro_staff_new: 'une réservation a été prise pour vous.',
  intro_staff_changed: 'l’une de vos réservations a changé.',
  intro_staff_canceled: 'l’une de vos réservations a été annulée.',
  intro_test:
    'ceci est un e-mail de test envoyé depuis Paramètres → Notifications. Si vous le lisez, les e-mails arrivent à destination.',
  hello: 'Bonjour {name},',
  helloPlain: 'Bonjour,',
  when: 'Quand',
  what: 'Quoi',
  with: 'Avec',
  where: 'Où',
  customer: 'Client',
  manage: 'Consulter, modifier ou annuler votre réservation',
  reminderIn:
    'Elle commence dans {unit, select, day {{count, plural, one {# jour} other {# jours}}} hour {{count, plural, one {# heure} other {# heures}}} other {{count, plural, one {# minute} other {# minutes}}}}.',
  attachment:
    'Le fichier de calendrier joint (.ics) ajoute la réservation à votre calendrier ou l’y met à jour.',
} satisfies MailCatalog;
