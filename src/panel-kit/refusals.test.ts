import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AppError, bookingFinal, conflict, limitReached, OfferGone, slotUnavailable } from '../errors.js';
import { ResourceNamedByServices } from '../resources/resources.service.js';
import { panelText } from './i18n.js';
import { REFUSAL_CODES, refusalOf } from './panel-errors.js';

const de = panelText('de', 'de-DE').t;

describe('refusalOf: a whole-request refusal in the reader’s language', () => {
  it.each([
    [bookingFinal(), 'Die Buchung ist abgeschlossen oder storniert und kann nicht mehr geändert werden.'],
    [
      new ResourceNamedByServices(['Massage', 'Sauna'], 'archive'),
      'Massage, Sauna benötigen diese Ressource namentlich: Ändern Sie zuerst diese Leistungen.',
    ],
    [
      limitReached(
        'webhooks',
        'This workspace already has 20 webhooks, the most it may have; delete one first.',
        20,
      ),
      'Dieser Arbeitsbereich hat schon 20 Webhooks, die Höchstzahl: Löschen Sie zuerst einen.',
    ],
    [new OfferGone('expired'), 'Dieses Angebot ist abgelaufen.'],
    [
      slotUnavailable('beyond_horizon'),
      'Die gewünschte Zeit liegt zu weit in der Zukunft: jenseits des Buchungszeitraums.',
    ],
    // A code the panel has no words for reads as a generic refusal, never as English.
    [
      conflict('something_new', 'Some new English rule.'),
      'Das ist im aktuellen Zustand nicht möglich: Laden Sie die Seite neu und versuchen Sie es noch einmal.',
    ],
    [new AppError(422, 'something_new', 'Some new English rule.'), 'Diese Anfrage wurde abgelehnt.'],
    [
      new AppError(404, 'not_found', 'Booking not found.'),
      'Hier gibt es nichts, oder es gehört nicht zu Ihrem Arbeitsbereich.',
    ],
  ])('%#: words the code of “%s”', (error, said) => {
    expect(refusalOf(error, de)).toBe(said);
  });

  it('keeps 5xx internals out', () => {
    expect(refusalOf(new AppError(500, 'internal_error', 'pg: relation missing'), de)).not.toContain('pg');
  });
});

/** Every error code a service or route throws (src, tests aside), read from the source. */
function thrownCodes(): Set<string> {
  const codes = new Set<string>();
  const pattern =
    /(?:conflict\(\s*|new AppError\(\s*\d{3},\s*|super\(\s*\d{3},\s*|badRequest\([^)]*?,\s*)'([a-z_]+)'/g;
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.tsx?$/.test(entry.name) && !entry.name.includes('.test.')) {
        for (const match of readFileSync(path, 'utf8').matchAll(pattern)) codes.add(match[1]!);
      }
    }
  };
  walk(join(import.meta.dirname, '..'));
  return codes;
}

/**
 * Codes the panel never shows as a refusal of its own: the API's and the hooks' (a bearer key, a
 * Workspace header, a signature, an idempotency key), the panel's own (worded in panel-errors.tsx
 * EXPLAINED), not found, 5xx, sign-in's (worded on its form), and a slot's (worded by reason).
 */
const NOT_PANEL_REFUSALS = [
  'bad_url',
  'csrf',
  'forbidden',
  'idempotency_key_reused',
  'internal_error',
  'invalid_credentials',
  'invalid_signature',
  'invalid_token',
  'no_workspace',
  'not_found',
  'payment_signature_invalid',
  'rate_limited',
  'service_unavailable',
  'slot_unavailable',
  'unsupported_media_type',
  'uri_too_long',
  'workspace_header_missing',
];

describe('the panel’s refusal codes', () => {
  it('word every code the services throw, so none reaches a reader in English', () => {
    const codes = thrownCodes();
    // The scan itself finds codes (a broken pattern would pass everything).
    expect(codes).toContain('booking_final');
    expect(codes).toContain('last_owner');
    const unworded = [...codes].filter(
      (code) => !(REFUSAL_CODES as readonly string[]).includes(code) && !NOT_PANEL_REFUSALS.includes(code),
    );
    expect(unworded).toEqual([]);
  });
});
