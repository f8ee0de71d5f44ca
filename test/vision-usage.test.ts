import { test, type TestContext } from 'node:test';
import { Migrator, PostgresAdapter, sql, type Kysely } from 'kysely';
import { DIALECTS, createTestDatabase } from './helpers/dialects.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { migrations } from '../src/db/migrations/index.ts';
import { CONSOLE_KEY, NO_KEY, createUsageRepository, outcomeOf } from '../src/usage/usage-repository.ts';
import { LATENCY_COLUMNS, latencyBucket } from '../src/usage/latency-histogram.ts';
import { usageTotals } from '../src/usage/usage-totals.ts';

const histogram = (samples: Record<number, number>) => LATENCY_COLUMNS.map((_, i) => samples[i] ?? 0);

for (const dialect of DIALECTS) {
  test(`[${dialect}] usage counters: concurrent upserts add up per project, api, UTC day and outcome`, async (t: TestContext) => {
    const database = await createTestDatabase(dialect);
    t.after(() => database.destroy());
    const usage = createUsageRepository(database.db);
    const at = new Date('2025-03-01T23:59:59.999Z');
    const next = new Date('2025-03-02T00:00:00.000Z');
    const key = 'k-one';
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        usage.record({ projectId: 'p-one', api: 'ocr', key, at, outcome: 'ok', requests: 1, images: i % 2 === 0 ? 1 : 16 }),
      ),
    );
    await usage.record({ projectId: 'p-one', api: 'ocr', key, at, outcome: 'client_error', requests: 1, images: 0 });
    await usage.record({ projectId: 'p-one', api: 'ocr', key, at: next, outcome: 'server_error', requests: 1, images: 3 });
    await usage.record({ projectId: 'p-two', api: 'ocr', key, at, outcome: 'ok', requests: 1, images: 1 });
    const empty = histogram({});
    t.assert.deepEqual(await usage.list('p-one', '2025-03-01', '2025-03-02'), [
      { date: '2025-03-01', api: 'ocr', outcome: 'client_error', requests: 1, images: 0, latency: empty },
      { date: '2025-03-01', api: 'ocr', outcome: 'ok', requests: 20, images: 170, latency: empty },
      { date: '2025-03-02', api: 'ocr', outcome: 'server_error', requests: 1, images: 3, latency: empty },
    ]);
    t.assert.equal((await usage.list('p-one', '2025-03-02', '2025-03-02')).length, 1);
    t.assert.deepEqual(await usage.list('p-three', '2025-01-01', '2025-12-31'), []);
    t.assert.deepEqual([200, 204, 400, 413, 429, 500, 503].map(outcomeOf), [
      'ok',
      'ok',
      'client_error',
      'client_error',
      'client_error',
      'server_error',
      'server_error',
    ]);
  });

  test(`[${dialect}] usage counters per key, with a latency histogram in the same row`, async (t: TestContext) => {
    const database = await createTestDatabase(dialect);
    t.after(() => database.destroy());
    const usage = createUsageRepository(database.db);
    const at = new Date('2025-03-01T12:00:00Z');
    const base = { projectId: 'p-one', api: 'ocr', at, requests: 1, images: 1 } as const;
    // 40 concurrent requests of one key, spread over two buckets; other keys and buckets besides.
    await Promise.all(
      Array.from({ length: 40 }, (_, i) => usage.record({ ...base, key: 'k-a', outcome: 'ok', latencyMs: i < 30 ? 80 : 1200 })),
    );
    await usage.record({ ...base, key: 'k-a', outcome: 'client_error', images: 0 }); // not sampled
    await usage.record({ ...base, key: CONSOLE_KEY, outcome: 'ok', latencyMs: 5 });
    await usage.record({ ...base, key: NO_KEY, outcome: 'ok', latencyMs: 120_000 });
    await usage.record({ ...base, key: 'k-b', at: new Date('2025-03-02T00:00:00Z'), outcome: 'ok', latencyMs: 70 });

    const [b80, b1200] = [latencyBucket(80), latencyBucket(1200)];
    t.assert.deepEqual(await usage.list('p-one', '2025-03-01', '2025-03-02', { byKey: true }), [
      { date: '2025-03-01', api: 'ocr', key: CONSOLE_KEY, outcome: 'ok', requests: 1, images: 1, latency: histogram({ 0: 1 }) },
      { date: '2025-03-01', api: 'ocr', key: 'k-a', outcome: 'client_error', requests: 1, images: 0, latency: histogram({}) },
      {
        date: '2025-03-01',
        api: 'ocr',
        key: 'k-a',
        outcome: 'ok',
        requests: 40,
        images: 40,
        latency: histogram({ [b80]: 30, [b1200]: 10 }),
      },
      {
        date: '2025-03-01',
        api: 'ocr',
        key: NO_KEY,
        outcome: 'ok',
        requests: 1,
        images: 1,
        latency: histogram({ [LATENCY_COLUMNS.length - 1]: 1 }),
      },
      { date: '2025-03-02', api: 'ocr', key: 'k-b', outcome: 'ok', requests: 1, images: 1, latency: histogram({ [latencyBucket(70)]: 1 }) },
    ]);
    // Without byKey the keys are summed, histograms too.
    const day = await usage.list('p-one', '2025-03-01', '2025-03-01');
    t.assert.deepEqual(
      day.map((r) => [r.outcome, r.requests, r.latency.reduce((a, b) => a + b, 0)]),
      [
        ['client_error', 1, 0],
        ['ok', 42, 42],
      ],
    );

    const totals = usageTotals(await usage.list('p-one', '2025-03-01', '2025-03-02', { byKey: true }));
    t.assert.equal(totals.length, 1);
    t.assert.deepEqual(
      totals[0].keys!.map((k) => [k.key, k.requests, k.errors, k.latency?.samples]),
      [
        ['k-a', 41, 1, 40],
        [CONSOLE_KEY, 1, 0, 1],
        ['k-b', 1, 0, 1],
        [NO_KEY, 1, 0, 1],
      ],
    );
    const a = totals[0].keys![0].latency!;
    t.assert.ok(a.p50Ms > 70 && a.p50Ms <= 100, `p50 in 80's bucket: ${a.p50Ms}`);
    t.assert.ok(a.p95Ms > 1000 && a.p95Ms <= 1500 && a.p99Ms >= a.p95Ms, `p95/p99 in 1200's bucket: ${JSON.stringify(a)}`);
    t.assert.equal(totals[0].latency!.samples, 43);
  });

  test(`[${dialect}] migration 0006 keeps earlier counters under "none", and goes back down`, async (t: TestContext) => {
    const database = await createTestDatabase(dialect);
    t.after(() => database.destroy());
    const db = database.db as Kysely<any>;
    const schema =
      db.getExecutor().adapter instanceof PostgresAdapter
        ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0].schema
        : undefined;
    const migrator = new Migrator({
      db,
      provider: { getMigrations: async () => migrations },
      ...(schema ? { migrationTableSchema: schema } : {}),
    });
    const down = await migrator.migrateTo('0005-vision-operations');
    t.assert.equal(down.error, undefined);
    const old = { project_id: 'p-one', api: 'ocr', day: '2025-01-31', outcome: 'ok', requests: 7, images: 9 };
    await db
      .insertInto('usage_counters')
      .values([old, { ...old, outcome: 'client_error', requests: 2, images: 2 }])
      .execute();
    t.assert.deepEqual(await migrateToLatest(db), ['0006-usage-by-key']);

    const usage = createUsageRepository(database.db);
    await usage.record({
      projectId: 'p-one',
      api: 'ocr',
      key: 'k-a',
      at: new Date('2025-01-31T10:00:00Z'),
      outcome: 'ok',
      requests: 1,
      images: 1,
      latencyMs: 300,
    });
    t.assert.deepEqual(
      (await usage.list('p-one', '2025-01-31', '2025-01-31', { byKey: true })).map((r) => [r.key, r.outcome, r.requests, r.images]),
      [
        ['k-a', 'ok', 1, 1],
        [NO_KEY, 'client_error', 2, 2],
        [NO_KEY, 'ok', 7, 9],
      ],
    );
    // Down again: the keys are summed back into one row per day, api and outcome.
    t.assert.equal((await migrator.migrateTo('0005-vision-operations')).error, undefined);
    const back = await db.selectFrom('usage_counters').selectAll().orderBy('outcome').execute();
    t.assert.deepEqual(
      back.map((r) => [r.outcome, Number(r.requests), Number(r.images)]),
      [
        ['client_error', 2, 2],
        ['ok', 8, 10],
      ],
    );
    t.assert.deepEqual(await migrateToLatest(db), ['0006-usage-by-key']);
  });
}
