import crypto from 'node:crypto';
import { test, type TestContext } from 'node:test';
import pg from 'pg';
import { InvalidationListener } from './invalidation-listener.ts';
import { INVALIDATION_CHANNEL, formatInvalidation, parseInvalidation, type InvalidationMessage } from './invalidation-message.ts';
import { isDatabaseUnavailable } from '../db/database-unavailable.ts';
import { startTcpProxy } from '../../test/helpers/tcp-proxy.ts';

const POSTGRES_URL = process.env.DATABASE_URL?.startsWith('postgres') ? process.env.DATABASE_URL : undefined;

test('invalidation payloads: round trip; malformed, oversized and hostile payloads are ignored', (t: TestContext) => {
  const message: InvalidationMessage = { kind: 'key', id: 'k-123' };
  t.assert.deepEqual(parseInvalidation(formatInvalidation(message)), message);
  t.assert.deepEqual(parseInvalidation('{"kind":"project","id":"demo","extra":1}'), { kind: 'project', id: 'demo' });
  for (const bad of [
    undefined,
    '',
    'not json',
    'null',
    '[]',
    '1',
    '{"kind":"all","id":"x"}',
    '{"kind":"key"}',
    '{"kind":"key","id":""}',
    '{"kind":"key","id":5}',
    `{"kind":"key","id":"${'x'.repeat(201)}"}`,
    `{"kind":"key","id":"x","pad":"${'y'.repeat(2000)}"}`,
    '{"__proto__":{"kind":"key","id":"x"}}',
  ]) {
    t.assert.equal(parseInvalidation(bad), undefined, String(bad).slice(0, 60));
  }
});

test('database-unavailable errors are told apart from query errors', (t: TestContext) => {
  const yes = [
    Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
    new Error('Connection terminated unexpectedly'),
    new Error('timeout exceeded when trying to connect'),
    Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
    Object.assign(new Error('the database system is starting up'), { code: '57P03' }),
    Object.assign(new Error('connection failure'), { code: '08006' }),
    Object.assign(new AggregateError([Object.assign(new Error('x'), { code: 'ECONNREFUSED' })], 'x'), {}),
    new Error('wrapped', { cause: Object.assign(new Error('y'), { code: 'ETIMEDOUT' }) }),
    Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }),
  ];
  const no = [
    Object.assign(new Error('duplicate key'), { code: '23505' }),
    Object.assign(new Error('syntax error'), { code: '42601' }),
    new Error('boom'),
    null,
    'ECONNREFUSED',
    { code: 7 },
  ];
  for (const err of yes) t.assert.equal(isDatabaseUnavailable(err), true, String(err));
  for (const err of no) t.assert.equal(isDatabaseUnavailable(err), false, String(err));
  const cyclic: { cause?: unknown } = {};
  cyclic.cause = cyclic;
  t.assert.equal(isDatabaseUnavailable(cyclic), false, 'cause cycles end');
});

test('the LISTEN connection hears NOTIFY, notices a lost connection, reconnects by itself', {
  skip: POSTGRES_URL ? false : 'needs DATABASE_URL=postgres://…',
}, async (t: TestContext) => {
  const url = new URL(POSTGRES_URL!);
  const relay = await startTcpProxy(Number(url.port || 5432), url.hostname);
  const viaRelay = new URL(POSTGRES_URL!);
  viaRelay.port = String(relay.port);
  const received: InvalidationMessage[] = [];
  const states: boolean[] = [];
  const listener = new InvalidationListener({
    databaseUrl: viaRelay.toString(),
    onMessage: (m) => received.push(m),
    onConnectedChange: (c) => states.push(c),
    onError: () => {},
    heartbeatMs: 200,
    minBackoffMs: 20,
    maxBackoffMs: 200,
  });
  const notifier = new pg.Client({ connectionString: POSTGRES_URL });
  await notifier.connect();
  t.after(async () => {
    await listener.close();
    await notifier.end();
    await relay.close();
  });
  const notify = (id: string) =>
    notifier.query('select pg_notify($1, $2)', [INVALIDATION_CHANNEL, formatInvalidation({ kind: 'key', id })]);
  const until = async (cond: () => boolean) => {
    for (let i = 0; i < 500 && !cond(); i += 1) await new Promise((r) => setTimeout(r, 20));
    t.assert.ok(cond());
  };

  await listener.start();
  t.assert.deepEqual(states, [true]);
  const first = `k-${crypto.randomBytes(4).toString('hex')}`;
  await notify(first);
  await notifier.query('select pg_notify($1, $2)', [INVALIDATION_CHANNEL, 'garbage']);
  await until(() => received.some((m) => m.id === first));

  await relay.cut();
  await until(() => states.at(-1) === false);
  t.assert.equal(listener.connected, false);
  await relay.restore();
  await until(() => states.at(-1) === true);
  const second = `k-${crypto.randomBytes(4).toString('hex')}`;
  await notify(second);
  await until(() => received.some((m) => m.id === second));
  t.assert.ok(
    received.every((m) => m.kind === 'key'),
    'garbage was ignored',
  );
});
