import crypto from 'node:crypto';
import { after, before, describe, test, type TestContext } from 'node:test';
import {
  CLUSTER_REDIS_URL,
  CLUSTER_SKIP,
  call,
  createClusterDatabase,
  ocr,
  setupProject,
  startNode,
  waitFor,
  type ClusterNode,
} from './helpers/cluster-node.ts';

/**
 * Two real server processes on one PostgreSQL database and one Redis (API.md §3: revocation,
 * expiry, deletion and api disabling take effect on every node within the published bound, 1 s).
 */
const BOUND_MS = 1000;

describe('two nodes on one PostgreSQL and Redis', { skip: CLUSTER_SKIP }, () => {
  let a: ClusterNode;
  let b: ClusterNode;
  let db: Awaited<ReturnType<typeof createClusterDatabase>>;

  before(async () => {
    db = await createClusterDatabase();
    const env = { DATABASE_URL: db.url, REDIS_URL: CLUSTER_REDIS_URL!, REDIS_KEY_PREFIX: `t-${crypto.randomBytes(4).toString('hex')}:` };
    [a, b] = await Promise.all([startNode(env), startNode(env)]);
  });
  after(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await db?.drop();
  });

  /** ms from now until `probe` holds on node B; asserts it is within the published bound. */
  async function withinBound(t: TestContext, what: string, probe: () => Promise<boolean>): Promise<void> {
    const ms = await waitFor(probe, 5000);
    t.assert.ok(ms <= BOUND_MS, `${what} took ${Math.round(ms)} ms on the other node (bound ${BOUND_MS} ms)`);
  }

  test('a key made on A works on B; revoked on A, B refuses it within 1 s', async (t: TestContext) => {
    const { projectId, keyId, keyString } = await setupProject(a.url, db.token, db.accountId);
    const first = await ocr(b.url, keyString);
    t.assert.equal(first.status, 200, JSON.stringify(first.body));
    t.assert.equal((await ocr(b.url, keyString)).status, 200, 'now cached on B');

    const revoked = await call(a.url, 'DELETE', `/api/projects/${projectId}/api-keys/${keyId}`, { token: db.token });
    t.assert.equal(revoked.status, 200);
    await withinBound(t, 'revocation', async () => (await ocr(b.url, keyString)).status === 401);
    const refused = await ocr(b.url, keyString);
    t.assert.equal(refused.body.error.details[0].reason, 'API_KEY_INVALID');
  });

  test('ocr disabled on A → B answers 403 within 1 s; enabled again → B serves again', async (t: TestContext) => {
    const { projectId, keyString } = await setupProject(a.url, db.token, db.accountId);
    t.assert.equal((await ocr(b.url, keyString)).status, 200);
    t.assert.equal((await call(a.url, 'DELETE', `/api/projects/${projectId}/apis/ocr`, { token: db.token })).status, 200);
    await withinBound(t, 'disabling ocr', async () => (await ocr(b.url, keyString)).status === 403);
    t.assert.equal((await ocr(b.url, keyString)).body.error.details[0].reason, 'SERVICE_DISABLED');
    t.assert.ok((await call(a.url, 'POST', `/api/projects/${projectId}/apis`, { token: db.token, body: { api: 'ocr' } })).status < 300);
    await withinBound(t, 're-enabling ocr', async () => (await ocr(b.url, keyString)).status === 200);
  });

  test('rotation on A: without grace B refuses the old secret within 1 s and takes the new one; with grace both work', async (t: TestContext) => {
    const { projectId, keyId, keyString } = await setupProject(a.url, db.token, db.accountId);
    t.assert.equal((await ocr(b.url, keyString)).status, 200);
    const rotated = await call(a.url, 'POST', `/api/projects/${projectId}/api-keys/${keyId}:rotate`, {
      token: db.token,
      body: { graceSeconds: 0 },
    });
    t.assert.equal(rotated.status, 200, JSON.stringify(rotated.body));
    await withinBound(t, 'rotation', async () => (await ocr(b.url, keyString)).status === 401);
    t.assert.equal((await ocr(b.url, rotated.body.keyString)).status, 200);

    const graceful = await call(a.url, 'POST', `/api/projects/${projectId}/api-keys/${keyId}:rotate`, {
      token: db.token,
      body: { graceSeconds: 300 },
    });
    t.assert.equal(graceful.status, 200);
    t.assert.equal((await ocr(b.url, rotated.body.keyString)).status, 200, 'the previous secret works during its grace period');
    t.assert.equal((await ocr(b.url, graceful.body.keyString)).status, 200);
  });

  test('an expiring key is refused on B within 1 s of its expireTime, though B had it cached', async (t: TestContext) => {
    const expireTime = new Date(Date.now() + 2500).toISOString();
    const { keyString } = await setupProject(a.url, db.token, db.accountId, { keyBody: { displayName: 'short', expireTime } });
    t.assert.equal((await ocr(b.url, keyString)).status, 200);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(expireTime) - Date.now())));
    await withinBound(t, 'expiry', async () => (await ocr(b.url, keyString)).status === 401);
  });

  test('project deleted on A → its keys stop on B within 1 s', async (t: TestContext) => {
    const { projectId, keyString } = await setupProject(a.url, db.token, db.accountId);
    t.assert.equal((await ocr(b.url, keyString)).status, 200);
    t.assert.equal((await call(a.url, 'DELETE', `/api/projects/${projectId}`, { token: db.token })).status, 200);
    await withinBound(t, 'project deletion', async () => (await ocr(b.url, keyString)).status === 403);
  });

  test('requestsPerMinute = 20 set on A: 40 requests alternating A and B → 18–22 accepted, the rest 429', async (t: TestContext) => {
    const { projectId, keyString } = await setupProject(a.url, db.token, db.accountId);
    const patched = await call(a.url, 'PATCH', `/api/projects/${projectId}/apis/ocr`, {
      token: db.token,
      body: { quota: { requestsPerMinute: 20 } },
    });
    t.assert.equal(patched.status, 200, JSON.stringify(patched.body));
    // The new quota reaches B's cache through the invalidation (no request was made there yet anyway).
    const results = [];
    for (let i = 0; i < 40; i += 1) results.push(await ocr(i % 2 === 0 ? a.url : b.url, keyString));
    const accepted = results.filter((r) => r.status === 200).length;
    const refused = results.filter((r) => r.status === 429);
    t.assert.ok(accepted >= 18 && accepted <= 22, `accepted ${accepted}`);
    t.assert.equal(accepted + refused.length, 40, `only 200 and 429: ${results.map((r) => r.status).join(',')}`);
    for (const r of refused) {
      t.assert.ok(Number(r.headers.get('retry-after')) >= 1);
      t.assert.equal(r.headers.get('x-ratelimit-limit'), '20');
      t.assert.equal(r.headers.get('x-ratelimit-remaining'), '0');
      t.assert.ok(Number(r.headers.get('x-ratelimit-reset')) >= 1);
      t.assert.equal(r.body.error.status, 'RESOURCE_EXHAUSTED');
    }
    t.assert.equal(results[0].headers.get('x-ratelimit-remaining'), '19');
  });

  test('/metrics exposes request, cache, invalidation, rate-limit and OCR queue series', async (t: TestContext) => {
    const metrics = await call(b.url, 'GET', '/metrics');
    t.assert.equal(metrics.status, 200);
    const text = String(metrics.body);
    for (const series of [
      'legible_http_request_duration_seconds_count{method="POST",route="/v1/images:annotate",status_code="200"}',
      'legible_key_cache_lookups_total{result="hit"}',
      'legible_key_cache_lookups_total{result="miss"}',
      'legible_cluster_invalidations_received_total{kind="key"}',
      'legible_cluster_invalidations_received_total{kind="project"}',
      'legible_rate_limit_refusals_total{route="/v1/images:annotate"}',
      'legible_rate_limit_fail_open_total 0',
      'legible_ocr_queue_depth',
      'legible_ocr_stage_duration_seconds_count{stage="detect"}',
    ]) {
      t.assert.ok(text.includes(series), `missing ${series}`);
    }
  });
});
