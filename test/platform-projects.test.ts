import { test, type TestContext } from 'node:test';
import { DIALECTS } from './helpers/dialects.ts';
import { buildTestApp } from './helpers/build-test-app.ts';
import { assertError, createTestAccount } from './helpers/common-route-tests.ts';

for (const dialect of DIALECTS) {
  test(`[${dialect}] projects: create, validate, duplicate, list with pagination, patch, soft delete`, async (t: TestContext) => {
    const { app, database } = await buildTestApp(t, dialect);
    const acme = await createTestAccount(database, 'acme');
    const h = acme.headers;
    const post = (payload?: unknown) =>
      app.inject({
        method: 'POST',
        url: '/api/accounts/acme/projects',
        headers: h,
        ...(payload === undefined ? {} : { payload: payload as object }),
      });

    const created = await post({ projectId: 'demo-project', displayName: 'Demo' });
    t.assert.equal(created.statusCode, 201);
    t.assert.equal(created.json().projectId, 'demo-project');
    t.assert.equal(created.json().name, 'projects/demo-project');
    t.assert.equal(created.json().state, 'ACTIVE');
    t.assert.ok(Date.parse(created.json().createTime) > 0);

    const generated = await post();
    t.assert.equal(generated.statusCode, 201);
    t.assert.match(generated.json().projectId, /^[a-z][a-z0-9-]{4,28}[a-z0-9]$/);

    await t.test('bad projectId → 400 INVALID_ARGUMENT naming the field', async (t: TestContext) => {
      for (const projectId of [
        'short',
        'Upper-case',
        '1starts-with-digit',
        'ends-with-hyphen-',
        'x'.repeat(31),
        'has_underscore',
        42,
        '',
      ]) {
        const r = await post({ projectId });
        assertError(t, r, 400, 'INVALID_ARGUMENT');
        t.assert.equal(
          r.json().error.details.find((d: { fieldViolations?: unknown }) => d.fieldViolations).fieldViolations[0].field,
          'projectId',
        );
      }
      assertError(t, await post({ projectId: 'valid-id-1', extra: 1 }), 400, 'INVALID_ARGUMENT');
      assertError(t, await post({ displayName: 'bad\u0000name' }), 400, 'INVALID_ARGUMENT');
    });
    await t.test('duplicate → 409 ALREADY_EXISTS, also across accounts (ids are global)', async (t: TestContext) => {
      assertError(t, await post({ projectId: 'demo-project' }), 409, 'ALREADY_EXISTS');
      const globex = await createTestAccount(database, 'globex');
      const r = await app.inject({
        method: 'POST',
        url: '/api/accounts/globex/projects',
        headers: globex.headers,
        payload: { projectId: 'demo-project' },
      });
      assertError(t, r, 409, 'ALREADY_EXISTS');
    });
    await t.test('list pages through every project exactly once', async (t: TestContext) => {
      for (let i = 0; i < 5; i += 1) t.assert.equal((await post({ projectId: `paged-${i}-project` })).statusCode, 201);
      const seen: string[] = [];
      let token: string | undefined;
      do {
        const r = await app.inject({ url: `/api/accounts/acme/projects?pageSize=2${token ? `&pageToken=${token}` : ''}`, headers: h });
        t.assert.equal(r.statusCode, 200);
        t.assert.ok(r.json().projects.length <= 2);
        seen.push(...r.json().projects.map((p: { projectId: string }) => p.projectId));
        token = r.json().nextPageToken;
      } while (token);
      t.assert.equal(seen.length, 7);
      t.assert.equal(new Set(seen).size, 7);
      assertError(t, await app.inject({ url: '/api/accounts/acme/projects?pageToken=garbage!', headers: h }), 400, 'INVALID_ARGUMENT');
      assertError(t, await app.inject({ url: '/api/accounts/acme/projects?pageSize=0', headers: h }), 400, 'INVALID_ARGUMENT');
      assertError(t, await app.inject({ url: '/api/accounts/acme/projects?pageSize=abc', headers: h }), 400, 'INVALID_ARGUMENT');
    });
    await t.test('patch and soft delete', async (t: TestContext) => {
      const patched = await app.inject({
        method: 'PATCH',
        url: '/api/projects/demo-project',
        headers: h,
        payload: { displayName: 'Renamed' },
      });
      t.assert.equal(patched.statusCode, 200);
      t.assert.equal(patched.json().displayName, 'Renamed');
      t.assert.ok(patched.json().updateTime >= patched.json().createTime);
      const deleted = await app.inject({ method: 'DELETE', url: '/api/projects/demo-project', headers: h });
      t.assert.equal(deleted.json().state, 'DELETE_REQUESTED');
      t.assert.ok(deleted.json().deleteTime);
      t.assert.equal((await app.inject({ url: '/api/projects/demo-project', headers: h })).json().state, 'DELETE_REQUESTED');
      t.assert.equal((await app.inject({ method: 'DELETE', url: '/api/projects/demo-project', headers: h })).statusCode, 200, 'idempotent');
      assertError(
        t,
        await app.inject({ method: 'PATCH', url: '/api/projects/demo-project', headers: h, payload: { displayName: 'x' } }),
        400,
        'FAILED_PRECONDITION',
      );
      assertError(
        t,
        await app.inject({ method: 'POST', url: '/api/projects/demo-project/apis', headers: h, payload: { api: 'ocr' } }),
        400,
        'FAILED_PRECONDITION',
      );
      assertError(
        t,
        await app.inject({ method: 'POST', url: '/api/projects/demo-project/api-keys', headers: h, payload: {} }),
        400,
        'FAILED_PRECONDITION',
      );
      const listed = (await app.inject({ url: '/api/accounts/acme/projects', headers: h }))
        .json()
        .projects.map((p: { projectId: string }) => p.projectId);
      t.assert.ok(!listed.includes('demo-project'));
      const all = (await app.inject({ url: '/api/accounts/acme/projects?showDeleted=true', headers: h }))
        .json()
        .projects.map((p: { projectId: string }) => p.projectId);
      t.assert.ok(all.includes('demo-project'));
      assertError(t, await post({ projectId: 'demo-project' }), 409, 'ALREADY_EXISTS');
    });
    await t.test('unknown project → 404', async (t: TestContext) => {
      assertError(t, await app.inject({ url: '/api/projects/no-such-project', headers: h }), 404, 'NOT_FOUND');
    });
  });

  test(`[${dialect}] apis: catalog, idempotent enable, list, quota, disable; audit log of it all`, async (t: TestContext) => {
    const { app, database } = await buildTestApp(t, dialect, { DEFAULT_REQUESTS_PER_MINUTE: '120' });
    const acme = await createTestAccount(database, 'acme');
    const h = acme.headers;
    await app.inject({ method: 'POST', url: '/api/accounts/acme/projects', headers: h, payload: { projectId: 'demo-project' } });

    const catalog = await app.inject({ url: '/api/apis', headers: h });
    t.assert.deepEqual(
      catalog.json().apis.map((a: { api: string }) => a.api),
      ['ocr', 'navigation'],
    );

    const enable = () => app.inject({ method: 'POST', url: '/api/projects/demo-project/apis', headers: h, payload: { api: 'ocr' } });
    const first = await enable();
    t.assert.equal(first.statusCode, 200);
    t.assert.equal(first.json().api, 'ocr');
    t.assert.equal(first.json().state, 'ENABLED');
    t.assert.equal(first.json().quota.requestsPerMinute, 120, 'DEFAULT_REQUESTS_PER_MINUTE');
    const again = await enable();
    t.assert.equal(again.statusCode, 200);
    t.assert.equal(again.json().createTime, first.json().createTime, 'idempotent');

    assertError(
      t,
      await app.inject({ method: 'POST', url: '/api/projects/demo-project/apis', headers: h, payload: { api: 'vision' } }),
      400,
      'INVALID_ARGUMENT',
    );
    assertError(t, await app.inject({ method: 'POST', url: '/api/projects/demo-project/apis', headers: h }), 400, 'INVALID_ARGUMENT');

    const list = await app.inject({ url: '/api/projects/demo-project/apis', headers: h });
    t.assert.deepEqual(
      list.json().apis.map((a: { api: string; state: string }) => [a.api, a.state]),
      [
        ['ocr', 'ENABLED'],
        ['navigation', 'DISABLED'],
      ],
    );
    const page = await app.inject({ url: '/api/projects/demo-project/apis?pageSize=1', headers: h });
    t.assert.equal(page.json().apis.length, 1);
    const next = await app.inject({ url: `/api/projects/demo-project/apis?pageSize=1&pageToken=${page.json().nextPageToken}`, headers: h });
    t.assert.equal(next.json().apis[0].api, 'navigation');

    const quota = await app.inject({
      method: 'PATCH',
      url: '/api/projects/demo-project/apis/ocr',
      headers: h,
      payload: { quota: { requestsPerMinute: 600 } },
    });
    t.assert.equal(quota.json().quota.requestsPerMinute, 600);
    for (const bad of [
      { quota: { requestsPerMinute: 0 } },
      { quota: { requestsPerMinute: 'x' } },
      { quota: {} },
      {},
      { quota: { requestsPerMinute: 5, burst: 1 } },
    ]) {
      assertError(
        t,
        await app.inject({ method: 'PATCH', url: '/api/projects/demo-project/apis/ocr', headers: h, payload: bad }),
        400,
        'INVALID_ARGUMENT',
      );
    }
    assertError(
      t,
      await app.inject({
        method: 'PATCH',
        url: '/api/projects/demo-project/apis/navigation',
        headers: h,
        payload: { quota: { requestsPerMinute: 5 } },
      }),
      400,
      'FAILED_PRECONDITION',
    );
    assertError(
      t,
      await app.inject({
        method: 'PATCH',
        url: '/api/projects/demo-project/apis/vision',
        headers: h,
        payload: { quota: { requestsPerMinute: 5 } },
      }),
      400,
      'INVALID_ARGUMENT',
    );

    const disabled = await app.inject({ method: 'DELETE', url: '/api/projects/demo-project/apis/ocr', headers: h });
    t.assert.equal(disabled.json().state, 'DISABLED');
    t.assert.equal(
      (await app.inject({ method: 'DELETE', url: '/api/projects/demo-project/apis/ocr', headers: h })).statusCode,
      200,
      'idempotent',
    );
    const reenabled = await enable();
    t.assert.equal(reenabled.json().quota.requestsPerMinute, 600, 'quota kept across disable/enable');

    const audit = await app.inject({ url: '/api/accounts/acme/audit-log', headers: h });
    t.assert.equal(audit.statusCode, 200);
    const actions = audit.json().entries.map((e: { action: string }) => e.action);
    t.assert.deepEqual(
      actions,
      ['api.enable', 'api.disable', 'api.update_quota', 'api.enable', 'project.create', 'account_token.create', 'account.create'],
      'newest first, one per change',
    );
    const entry = audit.json().entries[0];
    t.assert.equal(entry.actor, `token:${acme.tokenId}`);
    t.assert.equal(entry.projectId, 'demo-project');
    const paged = await app.inject({ url: '/api/accounts/acme/audit-log?pageSize=3', headers: h });
    t.assert.equal(paged.json().entries.length, 3);
    const rest = await app.inject({ url: `/api/accounts/acme/audit-log?pageSize=10&pageToken=${paged.json().nextPageToken}`, headers: h });
    t.assert.deepEqual(
      [...paged.json().entries, ...rest.json().entries].map((e: { action: string }) => e.action),
      actions,
    );
    t.assert.equal(rest.json().nextPageToken, undefined);
  });
}
