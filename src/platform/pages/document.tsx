import type { ComponentChildren, VNode } from 'preact';
import { renderToString } from 'preact-render-to-string';

/**
 * The HTML document every page of the panel and the booking page is rendered into:
 * server-rendered Preact, its CSS inline (one request per page, no web fonts), and island scripts
 * served by the app itself. preact-render-to-string escapes every text and attribute, so what
 * customers and staff typed is printed, never run.
 */
export interface DocumentOptions {
  title: string;
  /** BCP 47 language of the page (`en`, `de`, `ar`, …). */
  lang: string;
  /** Writing direction; `rtl` lays the page out right to left (Arabic). Left to right when absent. */
  dir?: 'ltr' | 'rtl' | undefined;
  /** The surface's stylesheet, inlined in <head> (the CSP allows it by its nonce). */
  css: string;
  /** A fresh random value per response; the CSP names it (see csp.ts). */
  nonce: string;
  /** Island bundles under /assets/islands/, loaded as deferred modules. */
  islands?: string[];
  /** Extra head elements (a <meta name="robots">, a <link rel="canonical">). */
  head?: ComponentChildren;
  body: VNode;
}

export function renderDocument(options: DocumentOptions): string {
  const page = (
    <html lang={options.lang} dir={options.dir}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{options.title}</title>
        <style nonce={options.nonce} dangerouslySetInnerHTML={{ __html: options.css }} />
        {options.head}
        {(options.islands ?? []).map((name) => (
          <script type="module" nonce={options.nonce} src={`/assets/islands/${name}.js`} defer />
        ))}
      </head>
      {options.body}
    </html>
  );
  return `<!doctype html>${renderToString(page)}`;
}
