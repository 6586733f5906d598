import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { projectRoot } from '../platform/db/project-root.js';
import { PANEL_PREFIX } from './layout.js';

/**
 * The panel as an installable web app: its manifest and icons, linked from every panel page's
 * head (render.tsx). The icons are drawn once from icon.svg (scripts/app-icons.mjs) and committed;
 * nothing is fetched or drawn at run time.
 */

/** The top bar's colour, so an installed panel's title bar matches its pages. */
export const THEME_COLOR = '#20263a';

export const MANIFEST_PATH = `${PANEL_PREFIX}/manifest.webmanifest`;
export const ICON_SVG_PATH = `${PANEL_PREFIX}/app-icon.svg`;
export const ICON_PNG_PATHS = {
  192: `${PANEL_PREFIX}/app-icon-192.png`,
  512: `${PANEL_PREFIX}/app-icon-512.png`,
};

const MANIFEST = JSON.stringify({
  name: 'Kairos account panel',
  short_name: 'Kairos',
  description: 'Bookings, calendar and setup of your Kairos workspace.',
  id: `${PANEL_PREFIX}`,
  start_url: `${PANEL_PREFIX}`,
  scope: `${PANEL_PREFIX}`,
  display: 'standalone',
  theme_color: THEME_COLOR,
  background_color: '#f5f6f8',
  icons: [
    { src: ICON_PNG_PATHS[192], sizes: '192x192', type: 'image/png' },
    { src: ICON_PNG_PATHS[512], sizes: '512x512', type: 'image/png' },
    { src: ICON_SVG_PATH, sizes: 'any', type: 'image/svg+xml' },
  ],
});

const ICONS: Record<string, { file: string; type: string }> = {
  '/app-icon.svg': { file: 'icon.svg', type: 'image/svg+xml' },
  '/app-icon-192.png': { file: 'icon-192.png', type: 'image/png' },
  '/app-icon-512.png': { file: 'icon-512.png', type: 'image/png' },
};

const iconBytes = new Map<string, Promise<Buffer>>();

/** One committed icon file, read once. */
function iconFile(file: string): Promise<Buffer> {
  let bytes = iconBytes.get(file);
  if (!bytes) {
    bytes = readFile(path.join(projectRoot(), 'src', 'panel-kit', 'app-icon', file));
    iconBytes.set(file, bytes);
  }
  return bytes;
}

/** The app's icon as SVG: also the server's favicon (src/workspaces/site/front.routes.tsx). */
export function appIconSvg(): Promise<Buffer> {
  return iconFile('icon.svg');
}

// Public: a browser fetches the manifest and icons without the session cookie.
const open = { config: { panelAccess: 'public' as const } };

export function appManifestRoutes(panel: FastifyInstance): void {
  panel.get('/manifest.webmanifest', open, async (_request, reply) =>
    reply.type('application/manifest+json').header('cache-control', 'public, max-age=86400').send(MANIFEST),
  );
  for (const [route, icon] of Object.entries(ICONS)) {
    panel.get(route, open, async (_request, reply) =>
      reply
        .type(icon.type)
        .header('cache-control', 'public, max-age=86400')
        .send(await iconFile(icon.file)),
    );
  }
}
