import type { MailKind } from '../platform/db/schema.js';
import type { Lang } from '../platform/i18n.js';
import { translator } from '../platform/message-format.js';
import ar from './messages/ar.js';
import de from './messages/de.js';
import en from './messages/en.js';
import es from './messages/es.js';
import fr from './messages/fr.js';
import it from './messages/it.js';
import nl from './messages/nl.js';
import pl from './messages/pl.js';
import pt from './messages/pt.js';
import tr from './messages/tr.js';
import uk from './messages/uk.js';

/**
 * The emails' words in each language of the booking page: one ICU MessageFormat catalog per
 * language in `messages/` (English the source). `what` is the booked services, `when` the
 * formatted start with its zone.
 */
export type MailKey = keyof typeof en;
export type MailCatalog = Record<MailKey, string>;

export const MAIL_CATALOGS: Record<Lang, MailCatalog> = { en, de, fr, es, it, pt, nl, pl, uk, tr, ar };

export interface MailTexts {
  subject: (
    kind: MailKind,
    values: { what: string; when: string; workspace: string; amount: string },
  ) => string;
  /** The emails about money name their amount. */
  intro: (kind: MailKind, amount: string, until?: string) => string;
  hello: (name: string) => string;
  helloPlain: string;
  when: string;
  what: string;
  with: string;
  where: string;
  customer: string;
  manage: string;
  /** The waitlist offer's link. */
  claim: string;
  reminderIn: (minutes: number) => string;
  attachment: string;
}

/** A reminder's lead time in its largest whole unit: 1440 min is 1 day, 90 min stays minutes. */
export function leadTime(minutes: number): { unit: 'day' | 'hour' | 'minute'; count: number } {
  if (minutes % 1440 === 0) return { unit: 'day', count: minutes / 1440 };
  if (minutes % 60 === 0) return { unit: 'hour', count: minutes / 60 };
  return { unit: 'minute', count: minutes };
}

/** The email texts of `lang`, numbers in `locale`. */
export function mailTexts(lang: Lang, locale: string): MailTexts {
  const t = translator(`mail.${lang}`, MAIL_CATALOGS[lang], locale);
  return {
    subject: (kind, values) => t(`subject_${kind}`, values),
    intro: (kind, amount, until = '') => t(`intro_${kind}`, { amount, until }),
    hello: (name) => t('hello', { name }),
    helloPlain: t('helloPlain'),
    when: t('when'),
    what: t('what'),
    with: t('with'),
    where: t('where'),
    customer: t('customer'),
    manage: t('manage'),
    claim: t('claim'),
    reminderIn: (minutes) => t('reminderIn', leadTime(minutes)),
    attachment: t('attachment'),
  };
}
