import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy } from './csp.js';
import { renderDocument } from './document.js';

describe('renderDocument', () => {
  it('escapes what people typed, in text and in attributes', () => {
    const typed = '<script>alert(1)</script>"\'&';
    const html = renderDocument({
      title: typed,
      lang: 'en',
      css: 'body{margin:0}',
      nonce: 'n0nce',
      body: (
        <body>
          <p title={typed}>{typed}</p>
        </body>
      ),
    });
    expect(html.startsWith('<!doctype html><html lang="en">')).toBe(true);
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).toContain('&lt;script>alert(1)&lt;/script>');
    expect(html).toContain('<style nonce="n0nce">body{margin:0}</style>');
  });

  it('loads islands as nonce-carrying modules from /assets/islands', () => {
    const html = renderDocument({
      title: 't',
      lang: 'de',
      css: '',
      nonce: 'abc',
      islands: ['copy-secret'],
      body: <body />,
    });
    expect(html).toContain('<script type="module" nonce="abc" src="/assets/islands/copy-secret.js" defer');
  });
});

describe('contentSecurityPolicy', () => {
  it('allows only our own origin and the nonce, and no framing unless origins are listed', () => {
    const policy = contentSecurityPolicy('xyz');
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("script-src 'nonce-xyz' 'self'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toContain('unsafe-inline');
    expect(contentSecurityPolicy('xyz', ['https://salon.example'])).toContain(
      'frame-ancestors https://salon.example',
    );
  });
});
