import { type PanelKey, type PanelText, usePanelText } from './i18n.js';

/** Small parts the setup pages share (locations, services, statuses, payment accounts). */

/** Marks a record that is kept for the bookings referring to it but no longer offered. */
export function ArchivedBadge() {
  const { t } = usePanelText();
  return <span class="badge muted">{t('kit.archived')}</span>;
}

/** The confirmation a redirect after a write asks for (`?notice=...`). */
export function Notice({ text }: { text: string | undefined }) {
  return text ? (
    <p class="notice" role="status">
      {text}
    </p>
  ) : null;
}

/** The notice named by the query's `notice`, among those a page knows. */
export function noticeOf(query: unknown, notices: Record<string, string>): { notice?: string } {
  const key = (query as Record<string, unknown> | undefined)?.notice;
  const notice = typeof key === 'string' ? notices[key] : undefined;
  return notice ? { notice } : {};
}

/** A page's notices (`?notice=` name → catalog key) in the reader's language, for `noticeOf`. */
export function noticesIn(text: PanelText, notices: Record<string, PanelKey>): Record<string, string> {
  return Object.fromEntries(Object.entries(notices).map(([name, key]) => [name, text.t(key)]));
}
