import assert from 'node:assert/strict';
import { test } from 'node:test';
import Fastify from 'fastify';
import { buildTestApp } from '../../../test/helpers/build-test-app.ts';
import { FIXTURE_TEXT, fixture } from '../../../test/fixtures/images/fixtures.ts';
import { ocrPlugin } from './ocr-plugin.ts';

test('the plugin decorates app.ocr and closes the pool with the app', async () => {
  const app = Fastify();
  await app.register(ocrPlugin, { ocr: { workers: 1, threads: 1, queueMax: 4 } });
  await app.ready();
  const outcome = await app.ocr.run(fixture('line.png'), { mode: 'document', languageHints: [] });
  assert.ok(outcome.ok);
  assert.equal(outcome.value.text.trim(), FIXTURE_TEXT.line);
  await app.close();
  const closed = await app.ocr.run(fixture('line.png'), { mode: 'text', languageHints: [] });
  assert.equal(closed.ok, false);
});

test('the app is wired with an engine that starts no worker until the first image', async (t) => {
  const { app } = await buildTestApp(t);
  assert.equal(typeof app.ocr.run, 'function');
  assert.equal(app.ocr.isReady, false);
  assert.equal(app.ocr.queueSize, 0);
});
