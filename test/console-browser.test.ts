import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { sharedPath } from './helpers/shared-dir.ts';
import { test, type TestContext } from 'node:test';
import sharp from 'sharp';
import type { Page } from 'playwright-core';
import { buildTestApp } from './helpers/build-test-app.ts';
import { findChromium, launchChromium, skipWithoutChromium } from './helpers/find-chromium.ts';
import { createAccountsRepository } from '../src/accounts/accounts-repository.ts';
import { createOcrEngine } from '../src/ocr/engine/ocr-engine.ts';
import { makePdf, multiPageTiff } from './helpers/document-fixtures.ts';

/**
 * The console end to end in real headless Chromium against a listening server: sign in, create a
 * project with OCR, create a key (secret shown once), read a real image in the playground (with the
 * account, then with the pasted key), see usage by key with latency percentiles, revoke the key,
 * read the audit log; the same at phone width. No page errors, no console errors, no CSP violations.
 *
 * `UPDATE_SCREENSHOTS=1 npm test -- test/console-browser.test.ts` also writes docs/screenshots/*.png.
 */

const CHROMIUM = findChromium();
const ROOT = path.resolve(import.meta.dirname, '..');
const WAKEUPCAT = sharedPath('data/vision-samples/wakeupcat.jpg');
const SCREENSHOTS = process.env.UPDATE_SCREENSHOTS ? path.join(ROOT, 'docs/screenshots') : undefined;

/** The image to read and its expected text: Google's sample when present, else one we render. */
async function sampleImage(): Promise<{ file: string; expected: string }> {
  if (fs.existsSync(WAKEUPCAT)) return { file: WAKEUPCAT, expected: 'Wake up human!' };
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'legible-console-')), 'hello-legible.png');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="200"><rect width="100%" height="100%" fill="#fff"/>
    <text x="40" y="120" font-family="DejaVu Sans, sans-serif" font-size="64" fill="#111">Hello Legible</text></svg>`;
  await sharp(Buffer.from(svg)).png().toFile(file);
  return { file, expected: 'Hello Legible' };
}

/**
 * A listening app with an account. Until `app.ts` wires the OCR engine itself, the test decorates the
 * real engine (the same pool `legible serve` uses), so the playground reads for real either way.
 */
async function startConsole(t: TestContext): Promise<{ base: string; token: string }> {
  const { app, database } = await buildTestApp(t);
  if (!app.hasDecorator('ocr')) {
    const engine = createOcrEngine({ workers: 1, threads: 1, queueMax: 8 });
    app.decorate('ocr', engine);
    t.after(() => engine.close());
  }
  const { secret: token } = await createAccountsRepository(database.db).createAccount('acme');
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { base: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`, token };
}

/** Every page error, console error and CSP violation of a page, to assert none happened. */
function watch(page: Page): string[] {
  const problems: string[] = [];
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error' || msg.type() === 'warning') problems.push(`console.${msg.type()}: ${msg.text()}`);
  });
  return problems;
}

async function shot(page: Page, name: string): Promise<void> {
  if (!SCREENSHOTS) return;
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.waitForTimeout(250); // let dialog and toast animations settle
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) });
}

/**
 * Waits for the recognised text, failing fast with the console's error banner when there is one.
 * The wait is generous on purpose: this checks the screen, not speed. A 2-page PDF reads in ~4 s
 * alone but took 63 s and > 120 s in CI, beside the cluster-fault suite warming several nodes.
 */
async function recognisedText(page: Page): Promise<string> {
  const text = page.getByRole('textbox', { name: 'Recognised text' });
  const alert = page.locator('.playground-results [role=alert]');
  await text.or(alert).first().waitFor({ timeout: 240_000 });
  if (await alert.isVisible()) throw new Error(`the playground showed an error: ${await alert.textContent()}`);
  return text.inputValue();
}

const DURATION = /^\d+(\.\d)? (ms|s)$/;

/** The usage screen's latency stats and per-key rows (one request each): read the same at every width. */
async function checkUsageByKey(t: TestContext, page: Page, keys: string[]): Promise<void> {
  const table = page.locator('.usage-keys');
  await table.getByText('By API key').waitFor();
  for (const label of ['Latency p50', 'Latency p95', 'Latency p99']) {
    const value = await page.locator('.stat').filter({ hasText: label }).locator('.stat-value').textContent();
    t.assert.match(value ?? '', DURATION, label);
  }
  const rows = table.locator('tbody tr');
  t.assert.equal(await rows.count(), keys.length);
  for (const key of keys) {
    const row = rows.filter({ hasText: key });
    await row.waitFor();
    t.assert.ok(await row.isVisible(), key);
    // Key, requests, images, errors, p50, p95, p99.
    const cells = (await row.locator('td').allTextContents()).map((c) => c.trim());
    t.assert.deepEqual(cells.slice(1, 4), ['1', '1', '0'], `${key}: ${cells}`);
    for (const p of cells.slice(4)) t.assert.match(p, DURATION, `${key}: ${cells}`);
    for (const cell of await row.locator('td').all()) t.assert.ok(await cell.isVisible(), `${key}: every number is on screen`);
  }
}

async function signIn(page: Page, base: string, token: string): Promise<void> {
  await page.goto(`${base}/console`);
  const input = page.getByLabel('Account token');
  if ((await input.getAttribute('type')) !== 'password') throw new Error('the token input must be a password input');
  await input.fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();
}

test('console: sign in, project, OCR, key shown once, playground, usage, revoke, audit', {
  skip: skipWithoutChromium(CHROMIUM),
  timeout: 240_000,
}, async (t: TestContext) => {
  const { base, token } = await startConsole(t);
  const sample = await sampleImage();
  const browser = await launchChromium(t, CHROMIUM);

  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  const problems = watch(page);

  // Sign in: the token is never put in the URL.
  await page.goto(`${base}/console`);
  await page.getByRole('heading', { name: 'Sign in to Legible Console' }).waitFor();
  await shot(page, 'sign-in');
  await signIn(page, base, token);
  t.assert.ok(!page.url().includes(token));
  await page.getByText('Create your first project').waitFor();
  await shot(page, 'projects-empty');

  // Create a project with OCR enabled.
  await page.getByRole('button', { name: 'New project' }).click();
  await page.getByLabel('Project name').fill('Receipts app');
  await page.getByLabel('Project ID').fill('receipts-app');
  await page.getByRole('button', { name: 'Create project' }).click();
  await page.getByRole('heading', { level: 1, name: /Receipts app/ }).waitFor();
  await page.locator('#api-ocr-title').getByText('Enabled').waitFor();
  await page.getByLabel('Rate limit').fill('120');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Rate limit set to 120 requests per minute.').waitFor();
  await shot(page, 'apis');

  // Create a key: its secret is shown once, in a dialog with a warning and a copy button.
  await page.getByRole('link', { name: 'API keys' }).click();
  await page.getByText('No API keys yet').waitFor();
  await page.getByRole('button', { name: 'Create API key' }).click();
  // Focus moves into the dialog, and back to the button that opened it when Escape closes it.
  await page.waitForFunction(() => document.activeElement?.id === 'key-name', null, { timeout: 5000 });
  await page.keyboard.press('Escape');
  await page.getByRole('dialog').waitFor({ state: 'detached' });
  await page.waitForFunction(() => document.activeElement?.textContent?.trim() === 'Create API key', null, { timeout: 5000 });
  await page.getByRole('button', { name: 'Create API key' }).click();
  await page.getByLabel('Name').fill('Production backend');
  await page.getByText('IP addresses').click();
  await page.getByLabel('Allowed IP addresses').fill('127.0.0.1\n10.0.0.0/8');
  await page.getByLabel('Expiration').selectOption({ label: 'In 90 days' });
  await shot(page, 'create-api-key');
  await page.getByRole('button', { name: 'Create key' }).click();
  const secretDialog = page.getByRole('dialog', { name: 'API key created' });
  await secretDialog.getByText('You will not be able to see it again').waitFor();
  await page.keyboard.press('Escape');
  t.assert.ok(await secretDialog.isVisible(), 'Escape does not dismiss a secret shown once');
  const keyString = await secretDialog.getByLabel('Your API key').inputValue();
  t.assert.match(keyString, /^lgb_key_[0-9A-Za-z]{49}$/);
  await secretDialog.getByRole('button', { name: 'Copy' }).click();
  await secretDialog.getByText('Copied').waitFor();
  t.assert.equal(await page.evaluate(() => navigator.clipboard.readText()), keyString);
  await shot(page, 'api-key-secret');
  await secretDialog.getByRole('button', { name: 'I have saved it' }).click();
  const row = page.getByRole('row', { name: /Production backend/ });
  await row.getByText('2 IP ranges').waitFor();
  t.assert.ok(!(await page.content()).includes(keyString), 'the secret is gone from the page once acknowledged');
  await shot(page, 'api-keys');

  // Edit the key in place: a bad range is caught while typing, the fixed list is saved.
  await page.getByRole('button', { name: 'Edit key Production backend' }).click();
  const edit = page.getByRole('dialog', { name: /Edit API key/ });
  t.assert.equal(await edit.getByLabel('Allowed IP addresses').inputValue(), '127.0.0.1\n10.0.0.0/8');
  await edit.getByLabel('Allowed IP addresses').fill('127.0.0.1\n10.0.0.0/33');
  await edit.getByText('Not an IP address or CIDR range: “10.0.0.0/33”').waitFor();
  t.assert.ok(await edit.getByRole('button', { name: 'Save' }).isDisabled(), 'nothing is sent while a restriction is invalid');
  await edit.getByLabel('Allowed IP addresses').fill('127.0.0.1\n10.0.0.0/8\n192.168.0.0/16');
  await shot(page, 'edit-api-key');
  await edit.getByRole('button', { name: 'Save' }).click();
  await edit.waitFor({ state: 'detached' });
  await page
    .getByRole('row', { name: /Production backend/ })
    .getByText('3 IP ranges')
    .waitFor();

  // An OAuth client: its first secret is shown once too; more secrets can be added for rotation.
  await page.getByRole('link', { name: 'OAuth clients' }).click();
  await page.getByText('No OAuth clients').waitFor();
  await page.getByRole('button', { name: 'Register client' }).click();
  await page.getByLabel('Client name').fill('Receipts web');
  await page.getByLabel('Redirect URIs').fill('https://receipts.example.com/oauth/callback');
  await page.getByRole('dialog').getByRole('button', { name: 'Register client' }).click();
  const clientDialog = page.getByRole('dialog', { name: 'OAuth client registered' });
  t.assert.match(await clientDialog.getByLabel('Client secret').inputValue(), /^lgb_cs_/);
  await clientDialog.getByRole('button', { name: 'I have saved it' }).click();
  await page.getByRole('button', { name: /Secrets/ }).click();
  await page
    .getByRole('row', { name: /lgb_cs_/ })
    .getByText('active')
    .waitFor();
  await shot(page, 'oauth-clients');

  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Projects' }).click();
  await page.getByRole('row', { name: /Receipts app/ }).waitFor();
  await shot(page, 'projects');

  // Playground with the account (no key): the first project with OCR is chosen.
  await page.getByRole('link', { name: 'OCR playground' }).click();
  await page.getByRole('heading', { level: 1, name: 'OCR playground' }).waitFor();
  t.assert.equal(await page.getByLabel('Project', { exact: true }).inputValue(), 'receipts-app');
  await page.locator('#pg-file').setInputFiles(sample.file);
  t.assert.match(await recognisedText(page), new RegExp(sample.expected.replace('!', '!?')));
  t.assert.ok((await page.locator('.stage-overlay polygon').count()) >= 2, 'word and line boxes are drawn');
  await page
    .getByRole('status')
    .filter({ hasText: /Found \d+ words?/ })
    .waitFor();
  await shot(page, 'playground');
  await page.getByRole('tab', { name: 'curl' }).click();
  const curl = await page.getByLabel('curl command').textContent();
  t.assert.ok(curl?.includes('$LEGIBLE_API_KEY') && curl.includes('/api/vision/v1/images:annotate'));
  t.assert.ok(!curl?.includes(token) && !curl?.includes(keyString), 'the curl command never carries a credential');
  await page.getByRole('tab', { name: 'JSON response' }).click();
  t.assert.ok((await page.getByLabel('Raw JSON response').textContent())?.includes('"fullTextAnnotation"'));

  // The same with the pasted key, through the public endpoint.
  await page.getByText('An API key').click();
  await page.getByLabel('API key', { exact: true }).fill(keyString);
  await page.getByRole('button', { name: 'Run again' }).click();
  await page.getByRole('status').filter({ hasText: 'via API key' }).waitFor({ timeout: 120_000 });
  await page.getByRole('tab', { name: 'Text' }).click();
  t.assert.match(await recognisedText(page), new RegExp(sample.expected.replace('!', '!?')));

  // Usage shows the two requests: one per key bucket (the pasted key, the console), each with its latency.
  await page.goto(`${base}/console#/projects/receipts-app/usage`);
  await page.getByRole('heading', { name: 'Usage' }).waitFor();
  await page.locator('.stat').filter({ hasText: 'Requests' }).getByText('2').waitFor();
  await checkUsageByKey(t, page, ['Production backend', 'Console playground']);
  await shot(page, 'usage');

  // Revoke the key; the public endpoint refuses it from then on.
  await page.getByRole('link', { name: 'API keys' }).click();
  await page.getByRole('button', { name: 'Revoke key Production backend' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Revoke key' }).click();
  await page
    .getByRole('row', { name: /Production backend/ })
    .getByText('Revoked')
    .or(page.getByText('No API keys yet'))
    .waitFor();
  const refused = await fetch(`${base}/api/vision/v1/images:annotate`, {
    method: 'POST',
    headers: { authorization: `Bearer ${keyString}`, 'content-type': 'application/json' },
    body: JSON.stringify({ requests: [] }),
  });
  t.assert.equal(refused.status, 401);

  // Account tokens: the signed-in one is marked; a new one is shown once, then revoked.
  await page.getByRole('link', { name: 'Account tokens' }).click();
  await page.getByRole('heading', { level: 1, name: 'Account tokens' }).waitFor();
  await page.getByText(/this browser/).waitFor();
  await page.getByRole('button', { name: 'Create token' }).click();
  const tokenDialog = page.getByRole('dialog', { name: 'Account token created' });
  const newToken = await tokenDialog.getByLabel('Your account token').inputValue();
  t.assert.match(newToken, /^lgb_at_/);
  await tokenDialog.getByRole('button', { name: 'I have saved it' }).click();
  t.assert.ok(!(await page.content()).includes(newToken), 'the token is gone from the page once acknowledged');
  t.assert.equal(await page.locator('tbody tr').count(), 2);
  await shot(page, 'account-tokens');
  const fresh = page.locator('tbody tr').filter({ hasNotText: 'this browser' });
  await fresh.getByRole('button', { name: /Revoke token/ }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Revoke token' }).click();
  await fresh.getByText('Revoked').waitFor();

  // The audit log lists what happened.
  await page.getByRole('link', { name: 'Audit log' }).click();
  await page.getByText('api_key.revoke').or(page.getByText('api_key.delete')).first().waitFor();
  await page.getByText('api_key.create').first().waitFor();
  await page.getByText('api_key.update').first().waitFor();
  await shot(page, 'audit-log');
  // Filter by resource and text: only the key's update is left.
  await page.getByLabel('Resource').selectOption({ label: 'api key' });
  await page.getByLabel('Search').fill('update');
  await page.getByText(/^1 of \d+ loaded entries/).waitFor();
  t.assert.equal(await page.locator('tbody tr').count(), 1);
  await page.getByLabel('Search').fill('');
  await page.getByLabel('Resource').selectOption({ label: 'All' });

  // Sign out clears the session.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByLabel('Account token').waitFor();
  t.assert.equal(await page.evaluate(() => sessionStorage.length), 0);

  t.assert.deepEqual(problems, []);
});

test('console at phone width: sign in, no gap under the header, navigate with the menu, playground, usage by key', {
  skip: skipWithoutChromium(CHROMIUM),
  timeout: 240_000,
}, async (t: TestContext) => {
  const { base, token } = await startConsole(t);
  const browser = await launchChromium(t, CHROMIUM);
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  const problems = watch(page);

  await page.goto(`${base}/console`);
  await page.getByLabel('Account token').waitFor();
  await shot(page, 'phone-sign-in');
  await signIn(page, base, token);
  // The screen starts right under the bar, however short it is (a stretched grid row once left a blank band).
  await page.getByText('Create your first project').waitFor();
  const gap = await page.evaluate(
    () =>
      document.querySelector('main')!.getBoundingClientRect().top - document.querySelector('.mobile-bar')!.getBoundingClientRect().bottom,
  );
  t.assert.equal(gap, 0, `no gap under the header (${gap}px)`);
  await page.getByRole('button', { name: 'New project' }).click();
  await page.getByLabel('Project name').fill('Mobile scans');
  await page.getByRole('button', { name: 'Create project' }).click();
  await page.getByRole('heading', { level: 1, name: /Mobile scans/ }).waitFor();
  await page.locator('#api-ocr-title').getByText('Enabled').waitFor();
  t.assert.ok(!(await page.getByRole('link', { name: 'Audit log' }).isVisible()), 'the sidebar is a closed drawer');
  await page.getByRole('button', { name: 'Open navigation' }).click();
  await page.getByRole('link', { name: 'OCR playground' }).click();
  await page.getByRole('heading', { level: 1, name: 'OCR playground' }).waitFor();
  const sample = await sampleImage();
  await page.locator('#pg-file').setInputFiles(sample.file);
  t.assert.match(await recognisedText(page), new RegExp(sample.expected.replace('!', '!?')));
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  t.assert.ok(overflow <= 0, `no horizontal scrolling at 390px (overflow ${overflow}px)`);
  // A mobile viewport widens itself to fit content that overflows, so the overflow above reads 0 then: check the width too.
  t.assert.equal(await page.evaluate(() => window.innerWidth), 390, 'the playground is laid out at the phone width');
  await page.locator('.result-card').scrollIntoViewIfNeeded();
  await shot(page, 'phone-playground');

  // Usage by key on a phone: each key's numbers stacked, all on screen, nothing scrolls sideways.
  const projectId = await page.getByLabel('Project', { exact: true }).inputValue();
  await page.goto(`${base}/console#/projects/${projectId}/usage`);
  await page.getByRole('heading', { name: 'Usage' }).waitFor();
  await checkUsageByKey(t, page, ['Console playground']);
  const usageOverflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  t.assert.ok(usageOverflow <= 0, `usage: no horizontal scrolling at 390px (overflow ${usageOverflow}px)`);
  t.assert.equal(await page.evaluate(() => window.innerWidth), 390, 'the page is laid out at the phone width, not zoomed out');
  t.assert.deepEqual(problems, []);
});

test('console playground: a 2-page PDF through files:annotate, page picker, boxes per page', {
  skip: skipWithoutChromium(CHROMIUM),
  timeout: 240_000,
}, async (t: TestContext) => {
  // Seconds since the start at each step, in the test's report: in CI this test has taken > 240 s where it takes 6 s alone.
  const start = performance.now();
  const step = (name: string) => t.diagnostic(`${name}: ${((performance.now() - start) / 1000).toFixed(1)} s`);
  const { base, token } = await startConsole(t);
  step('server started');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'legible-console-pdf-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const pdfFile = path.join(dir, 'two-pages.pdf');
  fs.writeFileSync(
    pdfFile,
    await makePdf([
      { kind: 'text', lines: ['Morning Harbour'] },
      { kind: 'scan', lines: ['Evening Lantern'], size: [792, 612] },
    ]),
  );
  const browser = await launchChromium(t, CHROMIUM);
  const page = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
  page.setDefaultTimeout(30_000);
  const problems = watch(page);
  const calls: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST') calls.push(new URL(r.url()).pathname);
  });

  await signIn(page, base, token);
  step('signed in');
  await page.getByRole('button', { name: 'New project' }).click();
  await page.getByLabel('Project name').fill('Documents');
  await page.getByLabel('Project ID').fill('documents');
  await page.getByRole('button', { name: 'Create project' }).click();
  await page.getByRole('heading', { level: 1, name: /Documents/ }).waitFor();
  await page.locator('#api-ocr-title').getByText('Enabled').waitFor();
  await page.getByRole('link', { name: 'OCR playground' }).click();
  await page.getByRole('heading', { level: 1, name: 'OCR playground' }).waitFor();
  step('playground open');

  await page.locator('#pg-file').setInputFiles(pdfFile);
  t.assert.match(await recognisedText(page), /Morning\s*Harbour/i);
  step('PDF page 1 read');
  const picker = page.getByLabel('Page', { exact: true });
  t.assert.deepEqual(await picker.locator('option').allTextContents(), ['1 of 2', '2 of 2']);
  // Page 1 is a 612×792 pt sheet; its boxes (normalizedVertices × page size) are inside it.
  t.assert.equal(await page.locator('.stage-overlay').getAttribute('viewBox'), '0 0 612 792');
  const inside = async () =>
    page.locator('.stage-overlay polygon').evaluateAll((polys) => {
      const svg = polys[0]?.closest('svg');
      const [, , w, h] = (svg?.getAttribute('viewBox') ?? '0 0 0 0').split(' ').map(Number);
      const points = polys.flatMap((p) => (p.getAttribute('points') ?? '').split(' ').map((xy) => xy.split(',').map(Number)));
      return polys.length >= 2 && points.every(([x, y]) => x >= 0 && y >= 0 && x <= w + 1 && y <= h + 1);
    });
  t.assert.ok(await inside(), 'page 1 boxes are drawn within the page');

  await picker.selectOption('2');
  await page.locator('.stage-overlay[viewBox="0 0 792 612"]').waitFor({ timeout: 120_000 });
  await page
    .getByRole('status')
    .filter({ hasText: /Found \d+ words?/ })
    .waitFor({ timeout: 120_000 });
  const second = await recognisedText(page);
  step('PDF page 2 read');
  t.assert.match(second, /Evening\s*Lantern/i);
  t.assert.doesNotMatch(second, /Morning/i);
  t.assert.equal(await page.locator('.stage-overlay').getAttribute('viewBox'), '0 0 792 612');
  t.assert.ok(await inside(), 'page 2 boxes are drawn within the page');
  await page.getByRole('tab', { name: 'JSON response' }).click();
  const json = JSON.parse((await page.getByLabel('Raw JSON response').textContent()) ?? '{}');
  t.assert.equal(json.responses[0].totalPages, 2);
  t.assert.equal(json.responses[0].responses[0].context.pageNumber, 2);
  await page.getByRole('tab', { name: 'curl' }).click();
  const curl = await page.getByLabel('curl command').textContent();
  t.assert.ok(
    curl?.includes('/api/vision/v1/files:annotate') && curl.includes('"mimeType":"application/pdf"') && curl.includes('"pages":[2]'),
    curl ?? '',
  );

  t.assert.deepEqual(
    calls.filter((c) => c.includes(':annotate')),
    ['/api/projects/documents/ocr:annotateFiles', '/api/projects/documents/ocr:annotateFiles'],
  );

  // A multi-page TIFF goes the same way; a new file starts again at page 1.
  const tiffFile = path.join(dir, 'frames.tiff');
  fs.writeFileSync(tiffFile, await multiPageTiff([['Copper Kettle'], ['Silver Spoon']]));
  await page.getByRole('tab', { name: 'Text' }).click();
  await page.locator('#pg-file').setInputFiles(tiffFile);
  await picker.locator('option', { hasText: '1 of 2' }).waitFor({ state: 'attached', timeout: 120_000 });
  step('TIFF opened');
  await page.waitForFunction(() => /Copper/i.test((document.querySelector('textarea') as HTMLTextAreaElement | null)?.value ?? ''), null, {
    timeout: 120_000,
  });
  t.assert.equal(await picker.inputValue(), '1');
  await picker.selectOption('2');
  await page.waitForFunction(() => /Silver/i.test((document.querySelector('textarea') as HTMLTextAreaElement | null)?.value ?? ''), null, {
    timeout: 120_000,
  });
  t.assert.ok(await inside(), 'TIFF page boxes are drawn within the page');
  step('TIFF page 2 read');
  t.assert.deepEqual(problems, []);
});
