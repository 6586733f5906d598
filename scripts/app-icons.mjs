// Run once by hand when src/panel-kit/app-icon/icon.svg changes: `node scripts/app-icons.mjs`.
// Browsers that install the panel as an app want PNG icons beside the SVG (192 and 512 px). They
// are drawn from the SVG by the Chromium the page tests use, so no image tool or download is
// needed, and the PNGs are committed: the server only reads them.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { root } from './prepare.mjs';

const folder = path.join(root, 'src', 'panel-kit', 'app-icon');
const svg = await readFile(path.join(folder, 'icon.svg'));
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox'],
});
try {
  for (const size of [192, 512]) {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    const src = `data:image/svg+xml;base64,${svg.toString('base64')}`;
    await page.setContent(
      `<style>html,body{margin:0;background:transparent}img{display:block}</style><img src="${src}" width="${size}" height="${size}" alt="">`,
    );
    await page.locator('img').evaluate((img) => img.decode());
    await page.screenshot({ path: path.join(folder, `icon-${size}.png`), omitBackground: true });
    await page.close();
  }
} finally {
  await browser.close();
}
