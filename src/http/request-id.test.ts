import { test, type TestContext } from 'node:test';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { createTestDatabase } from '../../test/helpers/dialects.ts';
import { createRequestIdGenerator } from './request-id.ts';

test('generated request ids are unique within a process and across processes', (t: TestContext) => {
  const next = createRequestIdGenerator();
  const ids = Array.from({ length: 10_000 }, next);
  t.assert.equal(new Set(ids).size, ids.length);
  for (const id of ids.slice(0, 3)) t.assert.match(id, /^[0-9a-f]{16}-[0-9a-z]+$/);
  t.assert.notEqual(createRequestIdGenerator()().split('-')[0], ids[0].split('-')[0], 'a random prefix per process');
});

test('log lines carry an incoming X-Request-Id, else a generated id', async (t: TestContext) => {
  const database = await createTestDatabase('sqlite');
  const lines: string[] = [];
  const app = await buildApp({
    config: loadConfig({ LOG_LEVEL: 'info', OCR_WORKERS: '1' }),
    database,
    logStream: { write: (line) => void lines.push(line) },
  });
  t.after(async () => {
    await app.close();
    await database.destroy();
  });
  await app.inject({ method: 'POST', url: '/v1/images:annotate', headers: { 'x-request-id': 'client-chosen-id' } });
  await app.inject({ method: 'POST', url: '/v1/images:annotate' });
  const reqIds = lines.map((line) => JSON.parse(line).reqId).filter(Boolean);
  t.assert.ok(reqIds.includes('client-chosen-id'));
  const generated = reqIds.filter((id) => id !== 'client-chosen-id');
  t.assert.ok(generated.length > 0 && generated.every((id) => /^[0-9a-f]{16}-[0-9a-z]+$/.test(id)), generated.join(' '));
});
