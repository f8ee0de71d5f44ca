import { test, type TestContext } from 'node:test';
import { DIALECTS, createTestDatabase } from './helpers/dialects.ts';
import { createUsageRepository, outcomeOf } from '../src/usage/usage-repository.ts';

for (const dialect of DIALECTS) {
  test(`[${dialect}] usage counters: concurrent upserts add up per project, api, UTC day and outcome`, async (t: TestContext) => {
    const database = await createTestDatabase(dialect);
    t.after(() => database.destroy());
    const usage = createUsageRepository(database.db);
    const at = new Date('2025-03-01T23:59:59.999Z');
    const next = new Date('2025-03-02T00:00:00.000Z');
    await Promise.all(Array.from({ length: 20 }, (_, i) =>
      usage.record({ projectId: 'p-one', api: 'ocr', at, outcome: 'ok', requests: 1, images: i % 2 === 0 ? 1 : 16 })));
    await usage.record({ projectId: 'p-one', api: 'ocr', at, outcome: 'client_error', requests: 1, images: 0 });
    await usage.record({ projectId: 'p-one', api: 'ocr', at: next, outcome: 'server_error', requests: 1, images: 3 });
    await usage.record({ projectId: 'p-two', api: 'ocr', at, outcome: 'ok', requests: 1, images: 1 });
    t.assert.deepEqual(await usage.list('p-one', '2025-03-01', '2025-03-02'), [
      { date: '2025-03-01', api: 'ocr', outcome: 'client_error', requests: 1, images: 0 },
      { date: '2025-03-01', api: 'ocr', outcome: 'ok', requests: 20, images: 170 },
      { date: '2025-03-02', api: 'ocr', outcome: 'server_error', requests: 1, images: 3 },
    ]);
    t.assert.equal((await usage.list('p-one', '2025-03-02', '2025-03-02')).length, 1);
    t.assert.deepEqual(await usage.list('p-three', '2025-01-01', '2025-12-31'), []);
    t.assert.deepEqual([200, 204, 400, 413, 429, 500, 503].map(outcomeOf), ['ok', 'ok', 'client_error', 'client_error', 'client_error', 'server_error', 'server_error']);
  });
}
