import { test, type TestContext } from 'node:test';
import { sql } from 'kysely';
import pg from 'pg';
import { POSTGRES_URL } from './helpers/dialects.ts';
import { buildTestApp } from './helpers/build-test-app.ts';
import { createTestAccount, setupProject } from './helpers/common-route-tests.ts';

/**
 * Issue 16, item 9: a dropped database answers 503 (not 500), and `/readyz` says so until the schema
 * is back: when the store returns empty, the node migrates it again before it reports ready.
 */
test('[postgres] a dropped schema → 503 and /readyz false; once recreated, migrated again and ready', {
  skip: POSTGRES_URL ? false : 'DATABASE_URL not set',
}, async (t: TestContext) => {
  const { app, database } = await buildTestApp(t, 'postgres', { OCR_WARM: 'false' });
  const owner = await createTestAccount(database, 'acme');
  await setupProject(app, owner, 'lost-project', { apis: ['ocr'], key: {} });
  const schema = (await sql<{ schema: string }>`select current_schema() as schema`.execute(database.db)).rows[0].schema;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  t.after(() => admin.end());

  t.assert.equal((await app.inject({ method: 'GET', url: '/readyz' })).statusCode, 200);
  await admin.query(`drop schema ${schema} cascade`);
  for (const url of ['/api/accounts/acme/projects', '/api/projects/lost-project', '/api/apis']) {
    const res = await app.inject({ method: 'GET', url, headers: owner.headers });
    t.assert.equal(res.statusCode, 503, `${url}: ${res.body.slice(0, 300)}`);
    t.assert.ok(Number(res.headers['retry-after']) >= 1);
  }
  t.assert.equal((await app.inject({ method: 'GET', url: '/readyz' })).statusCode, 503);

  // The database is recreated empty: ready only once the schema is there again.
  await admin.query(`create schema ${schema}`);
  const ready = await app.inject({ method: 'GET', url: '/readyz' });
  t.assert.equal(ready.statusCode, 200, ready.body);
  const tables = await admin.query(`select count(*)::int as n from information_schema.tables where table_schema = $1`, [schema]);
  t.assert.ok(tables.rows[0].n > 5);
  // The old token's account is gone with the data: refused, not a 500.
  t.assert.equal((await app.inject({ method: 'GET', url: '/api/accounts/acme/projects', headers: owner.headers })).statusCode, 401);
});
