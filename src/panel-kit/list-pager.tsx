import { usePanelText } from './i18n.js';

/** Previous / next links under a paginated panel list; `href` builds the link of a page. */
export function ListPager(props: {
  page: number;
  perPage: number;
  total: number;
  href: (page: number) => string;
  label?: string;
}) {
  const { t } = usePanelText();
  const last = Math.max(1, Math.ceil(props.total / props.perPage));
  if (last <= 1 && props.page <= 1) return null;
  return (
    <nav class="pager row" aria-label={props.label ?? t('kit.pages')}>
      {props.page > 1 ? (
        <a href={props.href(Math.min(props.page - 1, last))} rel="prev">
          {t('kit.previousPage')}
        </a>
      ) : null}
      <span>{t('kit.pageOf', { page: props.page, last })}</span>
      {props.page < last ? (
        <a href={props.href(props.page + 1)} rel="next">
          {t('kit.nextPage')}
        </a>
      ) : null}
    </nav>
  );
}

/** `?page=` of a panel list: a whole number from 1, anything else is page 1. */
export function pageParam(query: unknown, max = 100_000): number {
  const raw = (query as Record<string, unknown> | undefined)?.page;
  const page = typeof raw === 'string' && /^\d{1,6}$/.test(raw) ? Number(raw) : 1;
  return Math.min(Math.max(page, 1), max);
}
