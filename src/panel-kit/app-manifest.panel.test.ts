import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers/build-test-app.js';
import { makeUser, PanelClient } from '../../test/helpers/panel-client.js';
import type { UserRow } from '../users/users.repository.js';

/** The panel installs as a web app: every page links the manifest, which names served icons. */

let t: TestApp;
let owner: UserRow;

beforeAll(async () => {
  t = await buildTestApp();
  owner = await makeUser(t.db, [{ workspaceId: t.workspace.id, role: 'owner' }]);
});
afterAll(() => t.close());

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A PNG's width and height, from its IHDR chunk. */
function pngSize(bytes: Buffer): [number, number] {
  expect(bytes.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
  return [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
}

describe('the panel as an installable app', () => {
  it('links the manifest, theme colour and icon from signed-in and signed-out pages, and the CSP allows it', async () => {
    const client = await PanelClient.signedIn(t.app, t.db, owner);
    for (const response of [
      await new PanelClient(t.app).get('/panel/sign-in'),
      await client.get('/panel/calendar'),
    ]) {
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain('<link rel="manifest" href="/panel/manifest.webmanifest"/>');
      expect(response.body).toContain('<meta name="theme-color" content="#20263a"/>');
      expect(response.body).toContain('<link rel="icon" href="/panel/app-icon.svg" type="image/svg+xml"/>');
      expect(response.headers['content-security-policy']).toContain("manifest-src 'self'");
    }
  });

  it('serves the manifest without a session, with its content type, starting at the panel', async () => {
    const response = await new PanelClient(t.app).get('/panel/manifest.webmanifest');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/manifest\+json/);
    const manifest = response.json();
    expect(manifest).toMatchObject({
      name: 'Kairos account panel',
      short_name: 'Kairos',
      start_url: '/panel',
      scope: '/panel',
      display: 'standalone',
      theme_color: '#20263a',
    });
    expect(manifest.icons).toEqual([
      { src: '/panel/app-icon-192.png', sizes: '192x192', type: 'image/png' },
      { src: '/panel/app-icon-512.png', sizes: '512x512', type: 'image/png' },
      { src: '/panel/app-icon.svg', sizes: 'any', type: 'image/svg+xml' },
    ]);
  });

  it('serves every icon the manifest names, as what it says it is', async () => {
    const manifest = (await new PanelClient(t.app).get('/panel/manifest.webmanifest')).json();
    for (const icon of manifest.icons as { src: string; sizes: string; type: string }[]) {
      const response = await t.app.inject({ method: 'GET', url: icon.src });
      expect(response.statusCode, icon.src).toBe(200);
      expect(response.headers['content-type']).toBe(icon.type);
      if (icon.type === 'image/png') {
        const [width, height] = pngSize(response.rawPayload);
        expect(`${width}x${height}`).toBe(icon.sizes);
      } else {
        expect(response.body).toMatch(/^<svg [^>]*viewBox="0 0 512 512"/);
      }
    }
  });
});
