import type { ComponentChildren } from 'preact';
import { LANGUAGE_NAMES, LANGUAGES } from '../../platform/i18n.js';
import { renderDocument } from '../../platform/pages/document.js';
import { type PageContext, pageHref, STATE_KEYS } from './state.js';
import { BOOKING_PAGE_CSS } from './styles.js';

export interface LayoutOptions {
  title: string;
  /** The step's heading (h1). */
  heading: string;
  /** Where "Back" goes; none on the first step. */
  back?: string | undefined;
  /** Times are shown in ctx.zone: the island may switch to the browser's zone (?tz=). */
  showsTimes?: boolean;
  /** The location's zone, the default when the URL has no tz. */
  locationZone?: string | undefined;
  /** This page shows a booking just made (the embed tells its parent). */
  booked?: boolean;
  children: ComponentChildren;
}

/** The document of every booking-page response: one request, inline CSS, one small island. */
export function renderPage(ctx: PageContext, options: LayoutOptions): string {
  return renderDocument({
    title: `${options.title} · ${ctx.workspaceName}`,
    lang: ctx.lang,
    dir: ctx.dir,
    css: BOOKING_PAGE_CSS,
    nonce: ctx.nonce,
    islands: ['booking'],
    head: <meta name="robots" content="noindex" />,
    body: (
      <body
        data-origins={ctx.embedOrigins.join(' ')}
        data-times={options.showsTimes ? '1' : undefined}
        data-zone={options.locationZone}
        data-booked={options.booked ? '1' : undefined}
        class={ctx.state.embed === '1' ? 'embed' : undefined}
      >
        <header>
          <a
            class="brand"
            href={pageHref(ctx.slug, { lang: ctx.state.lang, embed: ctx.state.embed, tz: ctx.state.tz })}
          >
            {ctx.workspaceName}
          </a>
          <LanguageSwitcher ctx={ctx} />
        </header>
        <main id="main">
          {options.back && (
            <a class="back" href={options.back}>
              {ctx.arrow.back} {ctx.t.back}
            </a>
          )}
          <h1>{options.heading}</h1>
          {options.children}
        </main>
      </body>
    ),
  });
}

/** A friendly error page (the widget surface never answers JSON). */
export function renderErrorPage(ctx: PageContext, heading: string, text: string): string {
  return renderPage(ctx, {
    title: heading,
    heading,
    children: (
      <>
        <p>{text}</p>
        <p>
          <a class="button" href={pageHref(ctx.slug, { lang: ctx.state.lang, embed: ctx.state.embed })}>
            {ctx.t.startOver}
          </a>
        </p>
      </>
    ),
  });
}

/**
 * Eleven languages do not fit side by side at 320 px: a select in a GET form, which works without
 * JavaScript (the button sends it). It comes back to this page (a manage page stays one) with the
 * choices so far as hidden fields; after a POST, to the step those choices lead to. Each language
 * is named in itself and marked with its own `lang`.
 */
function LanguageSwitcher({ ctx }: { ctx: PageContext }) {
  return (
    <form class="lang" method="get" action={ctx.path ?? pageHref(ctx.slug, {})}>
      {STATE_KEYS.filter((key) => key !== 'lang' && ctx.state[key] !== undefined).map((key) => (
        <input type="hidden" name={key} value={ctx.state[key]} />
      ))}
      <label class="sr" for="lang">
        {ctx.t.language}
      </label>
      <select id="lang" name="lang">
        {LANGUAGES.map((lang) => (
          <option value={lang} lang={lang} selected={lang === ctx.lang}>
            {LANGUAGE_NAMES[lang]}
          </option>
        ))}
      </select>
      <button type="submit">{ctx.t.switchLanguage}</button>
    </form>
  );
}
