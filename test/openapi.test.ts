import { test, type TestContext } from 'node:test';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Value } from '@sinclair/typebox/value';
import { ErrorBodySchema } from '../src/http/error-body-schema.ts';
import { BatchAnnotateImagesResponseSchema } from '../src/vision/vision-response-schema.ts';
import { buildTestApp } from './helpers/build-test-app.ts';
import { createTestAccount, setupProject } from './helpers/common-route-tests.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const REDOCLY = path.join(ROOT, 'node_modules/@redocly/cli/bin/cli.js');

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function operations(spec: Json): Array<{ method: string; path: string; op: Json }> {
  return Object.entries<Json>(spec.paths).flatMap(([p, item]) =>
    Object.entries<Json>(item).map(([method, op]) => ({ method, path: p, op })),
  );
}

test('OpenAPI: `redocly lint` with the recommended rules reports no error and no warning (offline)', async (t: TestContext) => {
  const { app } = await buildTestApp(t);
  const spec = (await app.inject('/openapi.json')).json();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'legible-openapi-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.writeFileSync(path.join(dir, 'openapi.json'), JSON.stringify(spec));
  const r = spawnSync(process.execPath, [REDOCLY, 'lint', '--extends=recommended', '--format=json', 'openapi.json'], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 120_000,
    // No telemetry, no update check: the lint must not need the network.
    env: { PATH: process.env.PATH, HOME: dir, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
  });
  const report = JSON.parse(r.stdout);
  const problems = report.problems.map((p: Json) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location?.[0]?.pointer}`);
  t.assert.deepEqual(problems, []);
  t.assert.deepEqual(report.totals, { errors: 0, warnings: 0, ignored: 0 });
  t.assert.equal(r.status, 0, r.stderr);
});

test('OpenAPI: operationIds, servers, security, Google errors, Idempotency-Key, the /v1 alias and a working annotate example', async (t: TestContext) => {
  const { app, database } = await buildTestApp(t);
  const spec = (await app.inject('/openapi.json')).json();
  t.assert.ok(spec.servers.length > 0);
  t.assert.deepEqual(Object.keys(spec.components.securitySchemes).sort(), ['accountToken', 'apiKey', 'apiKeyHeader', 'apiKeyQuery']);
  const ops = operations(spec);
  t.assert.ok(ops.length >= 35, `${ops.length} operations`);
  const ids = ops.map((o) => o.op.operationId);
  t.assert.equal(new Set(ids).size, ids.length, 'operationIds are unique');
  for (const { method, path: p, op } of ops) {
    const where = `${method.toUpperCase()} ${p}`;
    t.assert.match(op.operationId, /^[a-z][A-Za-z]*(\.[a-z][A-Za-z]*)+$/, where);
    t.assert.ok(Array.isArray(op.security), `${where}: security`);
    const errors = Object.keys(op.responses).filter((c) => /^[45]/.test(c));
    t.assert.ok(
      errors.some((c) => c.startsWith('4')),
      `${where}: a 4xx response`,
    );
    t.assert.equal(op.responses.default.$ref, '#/components/responses/ErrorDefault', where);
    for (const c of errors) t.assert.match(op.responses[c].$ref ?? '', /^#\/components\/responses\/Error\d{3}$/, `${where} ${c}`);
    // Fastify serves every documented operation (the document is not a wish list).
    const probe = await app.inject({ method: method.toUpperCase() as 'GET', url: p.replace(/\{\w+\}/g, 'abcdef-1') });
    t.assert.notEqual(probe.statusCode, 404, `${where} is a route: ${probe.body.slice(0, 200)}`);
    if (method === 'post' && (p.startsWith('/api/projects/') || p.startsWith('/api/accounts/'))) {
      t.assert.ok(
        op.parameters.some((x: Json) => x.in === 'header' && x.name === 'Idempotency-Key'),
        `${where}: Idempotency-Key`,
      );
      t.assert.ok(op.responses['409'] && op.responses['422'], `${where}: idempotency errors`);
    }
  }
  t.assert.equal(spec.components.responses.Error401.content['application/json'].schema.$ref, '#/components/schemas/GoogleError');
  const alias = spec.paths['/v1/images:annotate']?.post;
  t.assert.equal(alias?.operationId, 'images.annotate');
  const annotate = spec.paths['/api/vision/v1/images:annotate'].post;
  t.assert.equal(annotate.operationId, 'vision.images.annotate');
  t.assert.equal(annotate.responses['200'].content['application/json'].schema.$ref, '#/components/schemas/BatchAnnotateImagesResponse');
  t.assert.equal(
    spec.paths['/api/projects/{project}/ocr:annotate'].post.responses['200'].content['application/json'].schema.$ref,
    '#/components/schemas/BatchAnnotateImagesResponse',
  );
  t.assert.ok(annotate.responses['429']);

  // Swagger UI sends the documented example: it must be accepted and read (no TYPE_UNSPECIFIED).
  const example = annotate.requestBody.content['application/json'].example;
  t.assert.equal(example.requests[0].features[0].type, 'TEXT_DETECTION');
  const owner = await createTestAccount(database, 'openapi-owner');
  const { keyString } = await setupProject(app, owner, 'openapi-project', { apis: ['ocr'], key: {} });
  for (const url of ['/api/vision/v1/images:annotate', '/v1/images:annotate']) {
    const res = await app.inject({ method: 'POST', url, headers: { 'x-goog-api-key': keyString! }, payload: example });
    t.assert.equal(res.statusCode, 200, res.body);
    const body: Json = res.json();
    const valid = Value.Check(BatchAnnotateImagesResponseSchema, body);
    t.assert.ok(valid, JSON.stringify([...Value.Errors(BatchAnnotateImagesResponseSchema, body)].slice(0, 3)));
    t.assert.match(String(res.json().responses[0].textAnnotations[0].description), /Legible/);
  }
  // The documented error envelope is the one sent.
  for (const res of [
    await app.inject({ method: 'POST', url: '/v1/images:annotate', payload: example }),
    await app.inject({ method: 'POST', url: '/api/accounts/openapi-owner/projects', headers: owner.headers, payload: { projectId: 'X' } }),
    await app.inject({ method: 'GET', url: '/api/projects/nope-nope', headers: owner.headers }),
  ]) {
    t.assert.ok(res.statusCode >= 400);
    t.assert.ok(Value.Check(ErrorBodySchema, res.json()), res.body);
  }
});
