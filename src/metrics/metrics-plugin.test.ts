import { test, type TestContext } from 'node:test';
import { buildTestApp } from '../../test/helpers/build-test-app.ts';
import { createMetrics } from './metrics.ts';

test('/metrics: Prometheus text with request series by route pattern, never by raw URL', async (t: TestContext) => {
  const { app } = await buildTestApp(t);
  await app.inject({ url: '/healthz' });
  await app.inject({ url: '/api/projects/some-project-id' }); // 401 without a token
  await app.inject({ url: '/no/such/route/secret-id' });
  const res = await app.inject({ url: '/metrics' });
  t.assert.equal(res.statusCode, 200);
  t.assert.match(String(res.headers['content-type']), /^text\/plain/);
  const text = res.body;
  t.assert.ok(text.includes('legible_http_request_duration_seconds_count{method="GET",route="/healthz",status_code="200"} 1'));
  t.assert.ok(text.includes('route="/api/projects/:project"'), 'the pattern, not the id');
  t.assert.ok(!text.includes('some-project-id') && !text.includes('secret-id'), 'ids never become labels');
  for (const series of ['legible_ocr_queue_depth 0', 'legible_rate_limit_fail_open_total 0', 'legible_process_cpu_seconds_total', 'legible_key_cache_lookups_total']) {
    t.assert.ok(text.includes(series), series);
  }
});

test('each app has its own registry (no clash on prom-client globals)', async (t: TestContext) => {
  const a = createMetrics();
  const b = createMetrics();
  a.keyCacheLookups.inc({ result: 'hit' });
  a.observeOcrStages({ detect: 120, recognize: 30, lines: 12 });
  t.assert.match(await a.registry.metrics(), /legible_key_cache_lookups_total\{result="hit"\} 1/);
  t.assert.match(await a.registry.metrics(), /legible_ocr_stage_duration_seconds_count\{stage="detect"\} 1/);
  t.assert.doesNotMatch(await a.registry.metrics(), /stage="lines"/, 'counts are not stages');
  t.assert.doesNotMatch(await b.registry.metrics(), /result="hit"\} 1/);
});
