import { test, type TestContext } from 'node:test';
import crypto from 'node:crypto';
import pg from 'pg';
import { createDatabase } from '../src/db/database.ts';
import { migrateToLatest, schemaIsCurrent } from '../src/db/migrate.ts';
import { POSTGRES_URL } from './helpers/dialects.ts';

const skip = POSTGRES_URL ? false : 'needs DATABASE_URL=postgres://…';

async function admin(t: TestContext): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  t.after(() => client.end());
  return client;
}

/** A fresh schema of its own and a store on it; both go when the test ends. */
async function ownSchema(t: TestContext, client: pg.Client) {
  const schema = `s_${crypto.randomBytes(6).toString('hex')}`;
  await client.query(`create schema ${schema}`);
  const handle = createDatabase(POSTGRES_URL!, { schema });
  t.after(async () => {
    await handle.destroy();
    const c = new pg.Client({ connectionString: POSTGRES_URL });
    await c.connect();
    await c.query(`drop schema if exists ${schema} cascade`);
    await c.end();
  });
  return { schema, handle };
}

test('several deployments on one server: migrations hold while other schemas are created and dropped', { skip }, async (t: TestContext) => {
  const client = await admin(t);
  const churn = await admin(t);
  // Another tenant (or test file) creating and dropping its schema as fast as it can. Kysely's own
  // introspector resolved every schema by name and failed with "schema … does not exist" here.
  let running = true;
  const churning = (async () => {
    let n = 0;
    while (running) {
      const other = `churn_${process.pid}_${n++}`;
      await churn.query(`create schema ${other}; create table ${other}.t (id serial primary key, v text)`);
      await churn.query(`drop schema ${other} cascade`);
    }
  })();
  try {
    for (let i = 0; i < 12; i++) {
      const { handle } = await ownSchema(t, client);
      t.assert.ok((await migrateToLatest(handle.db)).length > 0);
      t.assert.equal(await schemaIsCurrent(handle.db), true);
    }
  } finally {
    running = false;
    await churning;
  }
});

test('introspection sees only the connection’s own schema', { skip }, async (t: TestContext) => {
  const client = await admin(t);
  const mine = await ownSchema(t, client);
  const theirs = await ownSchema(t, client);
  await migrateToLatest(mine.handle.db);
  await client.query(`create table ${theirs.schema}.only_theirs (id serial primary key)`);

  const tables = await mine.handle.db.introspection.getTables({ withInternalKyselyTables: true });
  t.assert.ok(tables.length > 2);
  t.assert.ok(tables.every((table) => table.schema === mine.schema));
  t.assert.ok(tables.some((table) => table.name === 'kysely_migration'));
  t.assert.ok(!tables.some((table) => table.name === 'only_theirs'));
  const visible = await mine.handle.db.introspection.getTables();
  t.assert.ok(!visible.some((table) => table.name.startsWith('kysely_migration')), 'internal tables only when asked');

  const theirTables = await theirs.handle.db.introspection.getTables();
  t.assert.deepEqual(
    theirTables.map((table) => [table.name, table.columns.map((c) => [c.name, c.dataType, c.isAutoIncrementing, c.isNullable])]),
    [['only_theirs', [['id', 'int4', true, false]]]],
  );
});
