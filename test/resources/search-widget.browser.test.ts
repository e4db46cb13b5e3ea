// The search widget (data/resources/search-widget.html) in a real browser against a real server: Debian's chromium,
// driven by playwright-core, opens /resource/search-widget.html?svcToken=… on a signed server backed by the shared
// reference database, types a search, submits, and reads the codes the widget lists from LookupSearch. Without
// chromium this test fails rather than skips (.ci/run installs it).
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Reference } from '../../src/reference/index.js';
import { signed, startSignedServer, type SignedServer } from '../http/helpers.js';
import { openSharedReference } from '../helpers/reference-db.js';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-sync'];

let ref: Reference;
let s: SignedServer;
let browser: Browser | undefined;
beforeAll(async () => {
  ref = await openSharedReference();
  s = await startSignedServer({ deps: { reference: ref } });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await s.close();
  ref.close();
});

describe('search widget', () => {
  test('a coder types a search and sees the codes LookupSearch ranks first; a word no code has shows none', async () => {
    if (!existsSync(CHROMIUM)) {
      throw new Error(`${CHROMIUM} is missing: install Debian's chromium (.ci/run does this in CI)`);
    }
    const auth = await s.fetch('/json/reply/Authenticate', { method: 'POST', headers: signed(s.key, s.userName) });
    expect(auth.status).toBe(200);
    const { svcToken } = (await auth.json()) as { svcToken: string };
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
    const page = await browser.newPage();
    const errors: string[] = [];
    // The browser's own request for /favicon.ico (404) is not the widget's.
    page.on('console', (m) => {
      if (m.type() === 'error' && !m.location().url.endsWith('/favicon.ico')) {
        errors.push(m.text());
      }
    });
    await page.goto(`${s.base}/resource/search-widget.html?svcToken=${encodeURIComponent(svcToken)}`);
    await page.fill('input[name=search]', 'type 2 diabetes with hyperglycemia');
    await page.click('button[type=submit]');
    await page.waitForSelector('#results li');
    const first = await page.textContent('#results li:first-child');
    expect(first).toContain('E11.65');
    expect(first).toContain('Type 2 diabetes mellitus with hyperglycemia');
    expect(errors).toEqual([]);

    // A word no code has: the widget says so and lists nothing.
    await page.fill('input[name=search]', 'qqxzzqq');
    await page.click('button[type=submit]');
    await expect.poll(() => page.textContent('#status'), { timeout: 30_000 }).toBe('No codes found.');
    expect(await page.locator('#results li').count()).toBe(0);
  }, 120_000);
});
