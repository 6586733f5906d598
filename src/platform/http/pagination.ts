import type { FastifyRequest } from 'fastify';
import { type Static, Type } from 'typebox';

export const MAX_PAGE = 1_000_000;

/** `page` (from 1) and `per_page` (default 15, max 100) of every paginated list. */
export const PaginationQuery = Type.Object({
  // A bound keeps the offset a number the store can take (page=1e20 is a 422 naming `page`).
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE, default: 1 })),
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 15 })),
});
export type PaginationQuery = Static<typeof PaginationQuery>;

export interface Page {
  page: number;
  perPage: number;
  offset: number;
}

export function pageOf(query: PaginationQuery): Page {
  const page = query.page ?? 1;
  const perPage = query.per_page ?? 15;
  return { page, perPage, offset: (page - 1) * perPage };
}

export interface Paginated<T> {
  data: T[];
  meta: { current_page: number; last_page: number; per_page: number; total: number };
  links: { first: string; last: string; prev: string | null; next: string | null };
}

export function paginated<T>(request: FastifyRequest, page: Page, data: T[], total: number): Paginated<T> {
  const lastPage = Math.max(1, Math.ceil(total / page.perPage));
  // One parse of the request's URL serves every link (URL parsing was 2% of a GET /locations).
  // The base is a placeholder: links never take the request's Host (a client may forge it).
  const url = new URL(request.url, 'http://host.invalid');
  const base = request.server.publicUrl;
  const link = (n: number) => pageLink(url, base, n, page.perPage);
  return {
    data,
    meta: { current_page: page.page, last_page: lastPage, per_page: page.perPage, total },
    links: {
      first: link(1),
      last: link(lastPage),
      prev: page.page > 1 ? link(Math.min(page.page - 1, lastPage)) : null,
      next: page.page < lastPage ? link(page.page + 1) : null,
    },
  };
}

/**
 * The request's URL at another page; `set` keeps each parameter where it first stood. Absolute
 * under PUBLIC_URL when it is set, else relative to the host (`/api/public/v2/...?page=2`).
 */
function pageLink(url: URL, base: string | undefined, page: number, perPage: number): string {
  url.searchParams.set('page', String(page));
  url.searchParams.set('per_page', String(perPage));
  return `${base ?? ''}${url.pathname}${url.search}`;
}
