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
  subject_staff_calendar_edit: 'Modifié dans votre agenda : {what}, {when}',
  subject_test: 'E-mail de test de {workspace}',
  subject_payment_received: 'Paiement reçu : {amount} pour {what}, {when}',
  subject_payment_refunded: 'Remboursement de {amount} : {what}, {when}',
  subject_payment_failed: 'Paiement non effectué : {amount} pour {what}, {when}',
  subject_waitlist_offer: 'Un créneau est libre pour vous : {what}, {when}',
  intro_confirmed: 'votre réservation est confirmée.',
  intro_rescheduled: 'votre réservation a été déplacée à un nouvel horaire.',
  intro_canceled: 'votre réservation a été annulée.',
  intro_completed: 'merci pour votre visite. Nous espérons vous revoir bientôt.',
  intro_reminder: 'un rappel de votre réservation.',
  intro_staff_new: 'une réservation a été prise pour vous.',
  intro_staff_changed: 'l’une de vos réservations a changé.',
  intro_staff_canceled: 'l’une de vos réservations a été annulée.',
  intro_staff_calendar_edit:
    'l’une de vos réservations a été déplacée ou supprimée dans votre propre agenda. La réservation elle-même n’a pas changé : ouvrez-la dans le panneau pour appliquer ou ignorer la modification.',
  intro_test:
    'ceci est un e-mail de test envoyé depuis Paramètres → Notifications. Si vous le lisez, les e-mails arrivent à destination.',
  intro_payment_received: 'nous avons bien reçu {amount}. Merci.',
  intro_payment_refunded:
    'nous avons remboursé {amount} sur votre carte. Cela peut prendre quelques jours avant d’apparaître sur votre relevé.',
  intro_payment_failed: 'nous n’avons pas pu débiter {amount} de votre carte. Merci de nous contacter.',
  intro_waitlist_offer:
    "un créneau que vous attendiez s'est libéré. Il vous est réservé jusqu'à {until} : réservez-le avec le lien ci-dessous, sinon il ira à la personne suivante.",
  hello: 'Bonjour {name},',
  helloPlain: 'Bonjour,',
  when: 'Quand',
  what: 'Quoi',
  with: 'Avec',
  where: 'Où',
  customer: 'Client',
  manage: 'Consulter, modifier ou annuler votre réservation',
  claim: 'Réserver ce créneau',
  reminderIn:
    'Elle commence dans {unit, select, day {{count, plural, one {# jour} other {# jours}}} hour {{count, plural, one {# heure} other {# heures}}} other {{count, plural, one {# minute} other {# minutes}}}}.',
  attachment:
    'Le fichier de calendrier joint (.ics) ajoute la réservation à votre calendrier ou l’y met à jour.',
} satisfies MailCatalog;
