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
  for (const series of [
    'legible_ocr_queue_depth 0',
    'legible_rate_limit_fail_open_total 0',
    'legible_process_cpu_seconds_total',
    'legible_key_cache_lookups_total',
  ]) {
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

test('OCR series: images by feature and outcome, time per image, queue wait, busy workers, models ready; the route label reads /v1/images:annotate', async (t: TestContext) => {
  const { app, database } = await buildTestApp(t);
  const { createTestAccount, setupProject } = await import('../../test/helpers/common-route-tests.ts');
  const sharp = (await import('sharp')).default;
  const owner = await createTestAccount(database, 'metrics-owner');
  const { keyString } = await setupProject(app, owner, 'metrics-project', { apis: ['ocr'], key: {} });
  const svg =
    '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="100"><rect width="100%" height="100%" fill="white"/><text x="20" y="66" font-family="DejaVu Sans" font-size="48">METRICS</text></svg>';
  const text = (await sharp(Buffer.from(svg)).png().toBuffer()).toString('base64');
  const blank = (
    await sharp({ create: { width: 64, height: 64, channels: 3, background: '#fff' } })
      .png()
      .toBuffer()
  ).toString('base64');
  const res = await app.inject({
    method: 'POST',
    url: '/v1/images:annotate',
    headers: { 'x-goog-api-key': keyString! },
    payload: {
      requests: [
        { image: { content: text }, features: [{ type: 'TEXT_DETECTION' }] },
        { image: { content: blank }, features: [{ type: 'DOCUMENT_TEXT_DETECTION' }] },
        { image: { content: Buffer.from('not an image').toString('base64') }, features: [{ type: 'TEXT_DETECTION' }] },
      ],
    },
  });
  t.assert.equal(res.statusCode, 200, res.body);
  const body = (await app.inject({ url: '/metrics' })).body;
  for (const series of [
    'legible_ocr_images_total{feature="TEXT_DETECTION",outcome="ok"} 1',
    'legible_ocr_images_total{feature="DOCUMENT_TEXT_DETECTION",outcome="no_text"} 1',
    'legible_ocr_images_total{feature="TEXT_DETECTION",outcome="image_unsupported"} 1',
    'legible_ocr_image_duration_seconds_count{feature="TEXT_DETECTION"} 2',
    'legible_ocr_queue_wait_seconds_count 2',
    'legible_ocr_workers 1',
    'legible_ocr_workers_busy 0',
    'legible_ocr_models_ready 1',
    'route="/v1/images:annotate"',
  ])
    t.assert.ok(body.includes(series), series);
  t.assert.ok(!body.includes('::annotate'));
});

test('ADMIN_PORT: /metrics, /docs and /openapi.json leave the API port for the admin app', async (t: TestContext) => {
  const { buildAdminApp } = await import('../http/admin-app.ts');
  const { app } = await buildTestApp(t, 'sqlite', { ADMIN_PORT: '0' });
  await app.ready();
  for (const url of ['/metrics', '/docs', '/openapi.json']) t.assert.equal((await app.inject(url)).statusCode, 404, url);
  const admin = await buildAdminApp(app);
  t.after(() => admin.close());
  await app.inject('/healthz');
  const metrics = await admin.inject('/metrics');
  t.assert.equal(metrics.statusCode, 200);
  t.assert.match(metrics.body, /legible_http_request_duration_seconds_count\{method="GET",route="\/healthz",status_code="200"\} 1/);
  const spec = (await admin.inject('/openapi.json')).json();
  t.assert.ok(spec.paths['/api/vision/v1/images:annotate']);
  t.assert.ok(!JSON.stringify(spec.paths).includes('/metrics'), 'admin routes are not in the public API document');
  const docs = await admin.inject('/docs/');
  t.assert.equal(docs.statusCode, 200);
  t.assert.match(docs.body, /swagger/i);
});

test('deploy/grafana-dashboard.json queries only series that /metrics exports', async (t: TestContext) => {
  const fs = await import('node:fs');
  const dashboard = JSON.parse(fs.readFileSync(new URL('../../deploy/grafana-dashboard.json', import.meta.url), 'utf8'));
  const exprs: string[] = dashboard.panels.flatMap((p: { targets: Array<{ expr: string }> }) => p.targets.map((x) => x.expr));
  t.assert.ok(exprs.length >= 10);
  const names = new Set(exprs.flatMap((e) => e.match(/legible_[a-z_]+/g) ?? []).map((n) => n.replace(/_(bucket|sum|count)$/, '')));
  const exported = await createMetrics().registry.getMetricsAsJSON();
  const known = new Set(exported.map((m) => m.name));
  for (const name of names) t.assert.ok(known.has(name), `${name} is exported`);
});
