// report.html in a real browser: Debian's chromium, driven by playwright-core, opens the rendered page from a file and
// the test reads what it shows. It must render, show the summary's totals, log no console error (a CSP violation is
// one) and request nothing but the file itself. CI installs chromium (.ci/run); without it this test fails rather
// than skips, so a missing browser never passes as a green run.
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, describe, expect, test } from 'vitest';
import { renderHtmlReport } from '../../src/reports/html-report.js';
import type { ScrubSummary } from '../../src/schemas/scrub.js';
import { expectedTotals, makeSummary } from './summary-fixture.js';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** What the browser did while loading one page. */
interface Visit {
  page: Page;
  url: string;
  requests: string[];
  consoleErrors: string[];
}

const MISSING = `${CHROMIUM} is missing: install Debian's chromium (apt-get install -y --no-install-recommends chromium; .ci/run does this in CI)`;

let browser: Browser | undefined;
let dir = '';

/**
 * The one browser for this file, started on first use. A missing chromium throws inside each test rather than in a
 * hook, so every test reports as failed, not skipped.
 */
async function startBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(MISSING);
  }
  if (dir === '') {
    dir = await mkdtemp(join(tmpdir(), 'html-report-'));
  }
  browser ??= await chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
  return browser;
}

afterAll(async () => {
  await browser?.close();
  if (dir !== '') {
    await rm(dir, { recursive: true, force: true });
  }
});

/** Renders `summary` to `<dir>/<name>`, opens it and records every request and console error. */
async function visit(summary: ScrubSummary, name: string): Promise<Visit> {
  const started = await startBrowser();
  const file = join(dir, name);
  await writeFile(file, renderHtmlReport(summary));
  const url = pathToFileURL(file).href;
  const page = await started.newPage();
  const requests: string[] = [];
  const consoleErrors: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') {
      consoleErrors.push(`${m.type()}: ${m.text()}`);
    }
  });
  page.on('pageerror', (e) => consoleErrors.push(`pageerror: ${e.message}`));
  const response = await page.goto(url, { waitUntil: 'load' });
  expect(response?.ok(), 'the file loads').toBe(true);
  return { page, url, requests, consoleErrors };
}

describe('report.html in headless chromium', () => {
  test(`finds chromium at ${CHROMIUM}`, () => {
    expect(existsSync(CHROMIUM), MISSING).toBe(true);
  });

  test('renders the totals of the summary, requests nothing else and logs no error', async () => {
    const summary = makeSummary();
    const { page, url, requests, consoleErrors } = await visit(summary, 'report.html');
    try {
      await expect(page.title()).resolves.toBe(`Claim scrub report ${summary.startedAt}`);
      expect(await page.locator('h1').innerText()).toBe('Claim scrub report');

      for (const [id, value] of Object.entries(expectedTotals(summary))) {
        const figure = page.locator(`[data-total="${id}"]`);
        expect(await figure.isVisible(), id).toBe(true);
        expect((await figure.innerText()).replaceAll(',', ''), id).toBe(String(value));
      }
      expect(await page.locator('[data-total="clean-rate"]').innerText()).toBe(
        `${(summary.claims.cleanRate * 100).toFixed(1)}%`,
      );

      // The chart is laid out with one bar per severity, the longest for the largest count.
      const chart = await page.locator('#severity-chart').boundingBox();
      expect(chart?.width).toBeGreaterThan(0);
      expect(chart?.height).toBeGreaterThan(0);
      const widths: number[] = [];
      for (const bar of await page.locator('#severity-chart rect').all()) {
        widths.push((await bar.boundingBox())?.width ?? 0);
      }
      expect(widths).toHaveLength(3);
      expect(Math.max(...widths)).toBe(widths[0]);
      expect(widths.every((w) => w > 0)).toBe(true);

      expect(await page.locator('[data-field="slowest-stage"]').innerText()).toBe(summary.timing.slowestStage);
      await expect(page.locator('#not-checked').innerText()).resolves.toContain('Not checked is never a pass.');

      expect(consoleErrors).toEqual([]);
      expect(requests).toEqual([url]);
    } finally {
      await page.close();
    }
  });

  test('shows hostile file names, rules and reasons as text, never as markup', async () => {
    const summary = makeSummary();
    const { page, consoleErrors } = await visit(summary, 'escaping <&"> report.html');
    try {
      expect(await page.locator('script, b, co').count()).toBe(0);
      const inputs = await page.locator('[data-table="inputs"]').innerText();
      expect(inputs).toContain(summary.inputs[0]!.name);
      const rules = await page.locator('[data-table="top-rules"]').innerText();
      expect(rules).toContain(summary.findings.byRule[0]!.rule);
      const notChecked = await page.locator('[data-table="not-checked"]').innerText();
      expect(notChecked).toContain(summary.notChecked[0]!.reason);
      expect(consoleErrors).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
