import path from 'node:path';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { type Browser, chromium, type Page } from 'playwright-core';

/** What every browser test shares: Debian's Chromium, offline, and axe plus screenshots per page. */

export const SCREENSHOTS = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'docs',
  'screenshots',
);
const WIDTHS = [1280, 375] as const;

/** Debian's Chromium with the flags that keep it off the network (README "Development"). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export interface AxeFinding {
  page: string;
  id: string;
  impact: string | null | undefined;
  nodes: string[];
}

/**
 * axe-core on a page as it is (serious and critical findings are collected, for one assertion
 * at the end of the file), then a full-page screenshot at 1280 and 375 px as
 * docs/screenshots/<prefix>-<name>-<width>.png.
 */
export class PageChecks {
  readonly findings: AxeFinding[] = [];
  constructor(private readonly prefix: string) {}

  async check(page: Page, name: string): Promise<void> {
    const results = await new AxeBuilder({ page }).analyze();
    for (const violation of results.violations) {
      if (violation.impact === 'serious' || violation.impact === 'critical') {
        this.findings.push({
          page: name,
          id: violation.id,
          impact: violation.impact,
          nodes: violation.nodes.map((node) => node.html.slice(0, 160)),
        });
      }
    }
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
      // Nothing may be wider than the screen: a phone user would have to scroll sideways.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      if (overflow > 0) {
        this.findings.push({
          page: name,
          id: 'horizontal-overflow',
          impact: `${overflow} px wider than ${width} px`,
          nodes: [],
        });
      }
      await page.screenshot({
        path: path.join(SCREENSHOTS, `${this.prefix}-${name}-${width}.png`),
        fullPage: true,
      });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  }
}
