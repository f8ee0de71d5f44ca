import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { test, type TestContext } from 'node:test';
import { DIALECTS } from '../../test/helpers/dialects.ts';
import { buildTestApp } from '../../test/helpers/build-test-app.ts';
import { assertError, assertSetupRouteAuth, createTestAccount, setupProject } from '../../test/helpers/common-route-tests.ts';
import { createAccountsRepository } from '../accounts/accounts-repository.ts';
import { CONSOLE_CSP } from './console-routes.ts';
import { DEFAULT_CONSOLE_PATHS, ensureConsoleBuilt } from './console-build.ts';

test('/console serves the app shell with a strict CSP, never cached; assets are hashed and immutable', async (t: TestContext) => {
  const { app } = await buildTestApp(t);
  for (const url of ['/console', '/console/']) {
    const res = await app.inject(url);
    t.assert.equal(res.statusCode, 200);
    t.assert.match(String(res.headers['content-type']), /^text\/html/);
    t.assert.equal(res.headers['cache-control'], 'no-cache');
    t.assert.equal(res.headers['content-security-policy'], CONSOLE_CSP);
    t.assert.equal(res.headers['x-content-type-options'], 'nosniff');
    t.assert.equal(res.headers['x-frame-options'], 'DENY');
    t.assert.equal(res.headers['referrer-policy'], 'no-referrer');
    // No inline script or style, nothing from another origin.
    t.assert.doesNotMatch(res.body, /<script(?![^>]*\bsrc=)[^>]*>/);
    t.assert.doesNotMatch(res.body, /<style|\sstyle=|\son[a-z]+=/i);
    t.assert.doesNotMatch(res.body, /(src|href)="(https?:)?\/\//);
  }
  t.assert.match(CONSOLE_CSP, /script-src 'self'(;|$)/);
  t.assert.doesNotMatch(CONSOLE_CSP, /unsafe-inline|unsafe-eval|https?:/);

  const html = (await app.inject('/console')).body;
  const assets = [...html.matchAll(/(?:src|href)="(\/console\/assets\/[^"]+)"/g)].map((m) => m[1]);
  t.assert.ok(assets.some((a) => /console-[A-Z0-9]+\.js$/.test(a)) && assets.some((a) => /console-[A-Z0-9]+\.css$/.test(a)));
  for (const asset of assets) {
    const res = await app.inject(asset);
    t.assert.equal(res.statusCode, 200, asset);
    t.assert.match(String(res.headers['cache-control']), /max-age=31536000.*immutable/);
    t.assert.equal(res.headers['content-security-policy'], CONSOLE_CSP);
  }
  const js = await app.inject(assets.find((a) => a.endsWith('.js'))!);
  t.assert.match(String(js.headers['content-type']), /javascript/);
  t.assert.ok(!js.body.includes('eval('), 'the bundle needs no eval (CSP has no unsafe-eval)');

  t.assert.equal((await app.inject({ method: 'HEAD', url: '/console' })).statusCode, 200);
  // The console is not part of the API reference.
  t.assert.ok(!JSON.stringify((await app.inject('/openapi.json')).json().paths).includes('/console'));
});

test('/console/assets: missing, traversal, dotfiles and hostile paths answer 4xx without leaking files', async (t: TestContext) => {
  const { app } = await buildTestApp(t);
  const hostile = [
    '/console/assets/nope.js',
    '/console/assets/../../package.json',
    '/console/assets/..%2f..%2f..%2fpackage.json',
    '/console/assets/%2e%2e/%2e%2e/%2e%2e/package.json',
    '/console/assets/..%5c..%5cpackage.json',
    '/console/assets/.env',
    '/console/assets/%00.js',
    `/console/assets/${'a'.repeat(5000)}.js`,
    '/console/index.html/..',
    '/console/../package.json',
  ];
  for (const url of hostile) {
    const res = await app.inject(url);
    // Dot segments are resolved before routing (`/console/index.html/..` is `/console/`): only the shell may answer.
    const shell = res.statusCode === 200 && res.body.includes('<div id="app">');
    t.assert.ok(shell || (res.statusCode >= 400 && res.statusCode < 500), `${url} → ${res.statusCode}`);
    t.assert.ok(!res.body.includes('"dependencies"'), `${url} leaked a file`);
  }
  assertError(t, await app.inject('/console/assets/nope.js'), 404, undefined);
  assertError(t, await app.inject({ method: 'POST', url: '/console', payload: {} }), 404, undefined);
});

for (const dialect of DIALECTS) {
  test(`[${dialect}] GET /api/whoami: the account of the token, and the setup-route auth matrix`, async (t: TestContext) => {
    const { app, database } = await buildTestApp(t, dialect);
    const owner = await createTestAccount(database, 'acme');
    const stranger = await createTestAccount(database, 'globex');
    const accounts = createAccountsRepository(database.db);
    const extra = await accounts.createToken('acme');
    await accounts.revokeToken(extra.token.tokenId, 'cli', 'acme');
    const { keyString } = await setupProject(app, owner, 'whoami-project', { apis: ['ocr'], key: {} });

    await assertSetupRouteAuth(
      t,
      { app, owner, stranger, revokedToken: extra.secret, apiKey: keyString! },
      { method: 'GET', url: '/api/whoami', tenantScoped: false },
    );

    const res = await app.inject({ url: '/api/whoami', headers: owner.headers });
    t.assert.equal(res.statusCode, 200);
    t.assert.deepEqual(res.json(), { accountId: 'acme', tokenId: owner.tokenId });
    t.assert.equal(res.headers['cache-control'], 'no-store');
    t.assert.ok(!res.body.includes(owner.token));
    t.assert.deepEqual((await app.inject({ url: '/api/whoami', headers: stranger.headers })).json().accountId, 'globex');

    // Hostile credentials: oversized, control characters, many spaces — refused as invalid, never a 5xx.
    for (const authorization of [`Bearer ${'x'.repeat(8000)}`, 'Bearer lgb_at_\u0000', `Bearer ${' '.repeat(100)}tok`, 'Bearer']) {
      const r = await app.inject({ url: '/api/whoami', headers: { authorization } });
      t.assert.equal(r.statusCode, 401, authorization.slice(0, 20));
    }
  });
}

test('ensureConsoleBuilt: content-addressed, rebuilt when a source changes, safe when processes race', async (t: TestContext) => {
  // Under the repository (gitignored .tmp/) so the bundler resolves preact from node_modules.
  const scratch = path.join(DEFAULT_CONSOLE_PATHS.sourceDir, '..', '.tmp', `console-build-${crypto.randomBytes(4).toString('hex')}`);
  t.after(() => fs.rm(scratch, { recursive: true, force: true }));
  const paths = { sourceDir: path.join(scratch, 'src'), outRoot: path.join(scratch, 'out') };
  await fs.cp(DEFAULT_CONSOLE_PATHS.sourceDir, paths.sourceDir, { recursive: true });

  const dirs = await Promise.all([ensureConsoleBuilt(paths), ensureConsoleBuilt(paths), ensureConsoleBuilt(paths)]);
  t.assert.equal(new Set(dirs).size, 1);
  const entries = await fs.readdir(paths.outRoot);
  t.assert.deepEqual(entries, [path.basename(dirs[0])], 'no temporary directories are left behind');
  t.assert.equal(await ensureConsoleBuilt(paths), dirs[0], 'a current bundle is reused');

  await fs.appendFile(path.join(paths.sourceDir, 'src/styles/console.css'), '\n.changed { color: red; }\n');
  const rebuilt = await ensureConsoleBuilt(paths);
  t.assert.notEqual(rebuilt, dirs[0]);
  const css = (await fs.readdir(path.join(rebuilt, 'assets'))).find((f) => f.endsWith('.css'))!;
  t.assert.match(await fs.readFile(path.join(rebuilt, 'assets', css), 'utf8'), /\.changed/);
});

test('ensureConsoleBuilt: refuses a console that imports a value from src/ (only `import type` may cross)', async (t: TestContext) => {
  const scratch = path.join(DEFAULT_CONSOLE_PATHS.sourceDir, '..', '.tmp', `console-build-${crypto.randomBytes(4).toString('hex')}`);
  t.after(() => fs.rm(scratch, { recursive: true, force: true }));
  const paths = { sourceDir: path.join(scratch, 'src'), outRoot: path.join(scratch, 'out') };
  await fs.cp(DEFAULT_CONSOLE_PATHS.sourceDir, paths.sourceDir, { recursive: true });
  const serverModule = path.join(DEFAULT_CONSOLE_PATHS.sourceDir, '../src/projects/api-catalog.ts');
  await fs.appendFile(
    path.join(paths.sourceDir, 'src/main.tsx'),
    `\nimport { API_NAMES } from ${JSON.stringify(serverModule)};\nconsole.log(API_NAMES);\n`,
  );
  await t.assert.rejects(ensureConsoleBuilt(paths), /imports code from outside .*api-catalog\.ts/);
});
