import { test, type TestContext } from 'node:test';
import fs from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import vision from '@google-cloud/vision';
import { buildTestApp } from './helpers/build-test-app.ts';
import { tempDir } from './helpers/temp-dir.ts';
import { assertError, createTestAccount, setupProject } from './helpers/common-route-tests.ts';
import { makePdf, textImage } from './helpers/document-fixtures.ts';
import { googleStorage } from './helpers/google-storage-client.ts';
import pg from 'pg';
import {
  call,
  CLUSTER_PEPPER,
  CLUSTER_REDIS_URL,
  CLUSTER_SKIP,
  createClusterDatabase,
  setupProject as clusterSetupProject,
  startNode,
  waitFor,
} from './helpers/cluster-node.ts';
import { createDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { createAccountsRepository } from '../src/accounts/accounts-repository.ts';

/**
 * asyncBatchAnnotate and operations with Google's own clients (`@google-cloud/vision`'s
 * asyncBatchAnnotateFiles + operation.promise(), `@google-cloud/storage` for input and output)
 * against a listening Legible, and a server killed with SIGKILL in the middle of a job.
 */

const PAGE_WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet', 'kilo', 'lima'];
const twelvePages = () =>
  makePdf(
    PAGE_WORDS.map((w, i) =>
      i % 3 === 1
        ? { kind: 'scan' as const, lines: [`${w} page`], jpeg: true }
        : {
            kind: 'text' as const,
            lines: [`${w} page`],
            ...(i === 5 ? { rotate: 90 as const } : {}),
            ...(i === 8 ? { size: [842, 595] as [number, number] } : {}),
          },
    ),
  );

const visionClient = (port: number, apiKey: string) =>
  new vision.ImageAnnotatorClient({ fallback: 'rest', apiEndpoint: '127.0.0.1', port, protocol: 'http', apiKey });

interface OutputFile {
  inputConfig?: unknown;
  responses: Array<{ context?: { pageNumber?: number; uri?: string }; fullTextAnnotation?: { text?: string } }>;
}

test("asyncBatchAnnotateFiles and images:asyncBatchAnnotate with Google's clients", async (t: TestContext) => {
  const { app, database } = await buildTestApp(t, 'sqlite', {
    DATA_DIR: tempDir('legible-async-'),
    OPERATION_POLL_MS: '100',
  });
  const owner = await createTestAccount(database, 'acme');
  const { keyId, keyString } = await setupProject(app, owner, 'async-project', { apis: ['ocr'], key: {} });
  const other = await setupProject(app, owner, 'stranger-project', { apis: ['ocr'], key: {} });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as AddressInfo).port;
  const base = `http://127.0.0.1:${port}`;
  const storage = googleStorage(base, 'async-project', keyString!);
  const client = visionClient(port, keyString!);
  t.after(() => client.close());

  await storage.createBucket('docs').catch((err: { code?: number }) => {
    if (err.code !== 409) throw err;
  });
  const pdf = await twelvePages();
  await storage.bucket('docs').upload(writeTemp(pdf, 'twelve.pdf'), { destination: 'in/twelve.pdf', resumable: false });

  await t.test(
    'a 12-page PDF, batchSize 5: 3 output files, each page once, progress while it runs, same text as files:annotate',
    async (t: TestContext) => {
      const [operation] = await client.asyncBatchAnnotateFiles({
        requests: [
          {
            inputConfig: { gcsSource: { uri: 'gs://docs/in/twelve.pdf' }, mimeType: 'application/pdf' },
            features: [{ type: 'DOCUMENT_TEXT_DETECTION' }],
            outputConfig: { gcsDestination: { uri: 'gs://docs/out/twelve-' }, batchSize: 5 },
          },
        ],
      });
      t.assert.match(operation.name ?? '', /^projects\/async-project\/operations\/[a-z0-9]+$/);
      const seen = new Set<number>();
      const poll = setInterval(async () => {
        const res = await fetch(`${base}/v1/${operation.name}`, { headers: { 'x-goog-api-key': keyString! } });
        const body = (await res.json()) as { metadata: { pagesDone: number } };
        seen.add(body.metadata.pagesDone);
      }, 150);
      const [response] = await operation.promise();
      clearInterval(poll);
      t.assert.deepEqual(JSON.parse(JSON.stringify(response)), {
        responses: [{ outputConfig: { gcsDestination: { uri: 'gs://docs/out/twelve-' }, batchSize: 5 } }],
      });
      t.assert.ok(
        [...seen].some((n) => n > 0 && n < 12),
        `progress seen while running: ${[...seen].sort((a, b) => a - b)}`,
      );

      const [files] = await storage.bucket('docs').getFiles({ prefix: 'out/twelve-' });
      t.assert.deepEqual(files.map((f) => f.name).sort(), [
        'out/twelve-output-1-to-5.json',
        'out/twelve-output-11-to-12.json',
        'out/twelve-output-6-to-10.json',
      ]);
      const outputs = await Promise.all(files.map(async (f) => JSON.parse((await f.download())[0].toString()) as OutputFile));
      const pages = outputs.flatMap((o) => o.responses);
      t.assert.deepEqual(
        pages.map((p) => p.context?.pageNumber).sort((a, b) => a! - b!),
        Array.from({ length: 12 }, (_, i) => i + 1),
      );
      for (const page of pages) {
        t.assert.equal(page.context?.uri, 'gs://docs/in/twelve.pdf');
        t.assert.match((page.fullTextAnnotation?.text ?? '').toLowerCase(), new RegExp(PAGE_WORDS[page.context!.pageNumber! - 1]));
      }
      const [sync] = await client.batchAnnotateFiles({
        requests: [
          {
            inputConfig: { gcsSource: { uri: 'gs://docs/in/twelve.pdf' }, mimeType: 'application/pdf' },
            features: [{ type: 'DOCUMENT_TEXT_DETECTION' }],
            pages: [2, 6, 12],
          },
        ],
      });
      for (const page of sync.responses?.[0].responses ?? []) {
        const async = pages.find((p) => p.context?.pageNumber === page.context?.pageNumber);
        t.assert.equal(async?.fullTextAnnotation?.text, page.fullTextAnnotation?.text, `page ${page.context?.pageNumber}`);
      }
    },
  );

  await t.test("operations: Google's four name forms; another project's key gets 404; listed; audited", async (t: TestContext) => {
    const list = await app.inject({ url: '/v1/projects/async-project/operations', headers: { 'x-goog-api-key': keyString! } });
    const [op] = list.json().operations;
    const id = op.name.split('/').pop();
    t.assert.equal(op.done, true);
    t.assert.equal(op.metadata['@type'], 'type.googleapis.com/google.cloud.vision.v1.OperationMetadata');
    t.assert.equal(op.metadata.state, 'DONE');
    t.assert.equal(op.response['@type'], 'type.googleapis.com/google.cloud.vision.v1.AsyncBatchAnnotateFilesResponse');
    for (const url of [
      `/v1/operations/${id}`,
      `/v1/projects/async-project/operations/${id}`,
      `/v1/projects/async-project/locations/eu/operations/${id}`,
      `/v1/locations/us/operations/${id}`,
      `/api/vision/v1/operations/${id}`,
    ]) {
      const res = await app.inject({ url, headers: { 'x-goog-api-key': keyString! } });
      t.assert.equal(res.statusCode, 200, url);
      t.assert.equal(res.json().name, op.name);
    }
    assertError(t, await app.inject({ url: `/v1/operations/${id}`, headers: { 'x-goog-api-key': other.keyString! } }), 404);
    assertError(
      t,
      await app.inject({ url: `/v1/projects/async-project/operations/${id}`, headers: { 'x-goog-api-key': other.keyString! } }),
      404,
    );
    const consoleList = await app.inject({ url: '/api/projects/async-project/operations', headers: owner.headers });
    t.assert.equal(consoleList.statusCode, 200, consoleList.body);
    t.assert.deepEqual(
      consoleList.json().operations.map((o: any) => [o.name, o.kind, o.metadata.pagesDone, o.metadata.totalPages]),
      [[op.name, 'files', 12, 12]],
    );
    const audit = await database.db.selectFrom('audit_log').select(['action', 'resource_id']).where('resource_id', '=', id).execute();
    t.assert.deepEqual(
      audit.map((a) => a.action),
      ['operation.create'],
    );
    const usage = await database.db
      .selectFrom('usage_counters')
      .select(['images', 'key_id'])
      .where('project_id', '=', 'async-project')
      .execute();
    t.assert.ok(usage.reduce((n, u) => n + Number(u.images), 0) >= 12, 'the pages are counted in usage');
    t.assert.deepEqual([...new Set(usage.map((u) => u.key_id))], [keyId], 'to the key that started the job');
  });

  await t.test(
    'images:asyncBatchAnnotate: 3 images, batchSize 2 → 2 output files of BatchAnnotateImagesResponse',
    async (t: TestContext) => {
      const images = await Promise.all(['mango', 'nectar', 'olive'].map((w) => textImage([`${w} image`])));
      const [operation] = await client.asyncBatchAnnotateImages({
        requests: images.map((content) => ({ image: { content }, features: [{ type: 'TEXT_DETECTION' as const }] })),
        outputConfig: { gcsDestination: { uri: 'gs://docs/images/' }, batchSize: 2 },
      });
      const [response] = await operation.promise();
      t.assert.equal(response.outputConfig?.gcsDestination?.uri, 'gs://docs/images/');
      const [files] = await storage.bucket('docs').getFiles({ prefix: 'images/' });
      t.assert.deepEqual(files.map((f) => f.name).sort(), ['images/output-1-to-2.json', 'images/output-3-to-3.json']);
      const first = JSON.parse((await files.find((f) => f.name.endsWith('1-to-2.json'))!.download())[0].toString());
      t.assert.match(first.responses[1].textAnnotations[0].description.toLowerCase(), /nectar/);
    },
  );

  await t.test('extension: no gcsDestination → the results come back inside the operation', async (t: TestContext) => {
    const headers = { 'x-goog-api-key': keyString! };
    await storage.bucket('docs').upload(
      writeTemp(
        await makePdf([
          { kind: 'text', lines: ['papa page'] },
          { kind: 'text', lines: ['quebec page'] },
        ]),
        'two.pdf',
      ),
      { destination: 'in/two.pdf', resumable: false },
    );
    const started = await app.inject({
      method: 'POST',
      url: '/v1/files:asyncBatchAnnotate',
      headers,
      payload: {
        requests: [
          {
            inputConfig: { gcsSource: { uri: 'gs://docs/in/two.pdf' }, mimeType: 'application/pdf' },
            features: [{ type: 'TEXT_DETECTION' }],
            outputConfig: { batchSize: 1 },
          },
        ],
      },
    });
    t.assert.equal(started.statusCode, 200, started.body);
    await waitFor(async () => (await app.inject({ url: `/v1/${started.json().name}`, headers })).json().done === true, 60_000, 100);
    const op = (await app.inject({ url: `/v1/${started.json().name}`, headers })).json();
    const file = op.response.responses[0].fileResponse;
    t.assert.equal(file.totalPages, 2);
    t.assert.deepEqual(
      file.responses.map((r: any) => r.context.pageNumber),
      [1, 2],
    );
    t.assert.match(file.responses[1].textAnnotations[0].description.toLowerCase(), /quebec/);
  });

  await t.test('cancel, bad requests, buckets of another project', async (t: TestContext) => {
    const headers = { 'x-goog-api-key': keyString! };
    const body = (uri: string, out = 'gs://docs/cancelled/') => ({
      requests: [
        {
          inputConfig: { gcsSource: { uri }, mimeType: 'application/pdf' },
          features: [{ type: 'TEXT_DETECTION' }],
          outputConfig: { gcsDestination: { uri: out }, batchSize: 1 },
        },
      ],
    });
    const started = await app.inject({
      method: 'POST',
      url: '/v1/files:asyncBatchAnnotate',
      headers,
      payload: body('gs://docs/in/twelve.pdf'),
    });
    t.assert.equal(started.statusCode, 200, started.body);
    t.assert.equal(started.json().metadata.state, 'CREATED');
    const cancel = await app.inject({ method: 'POST', url: `/v1/${started.json().name}:cancel`, headers, payload: {} });
    t.assert.equal(cancel.statusCode, 200, cancel.body);
    await waitFor(async () => (await app.inject({ url: `/v1/${started.json().name}`, headers })).json().done === true, 60_000, 100);
    const ended = (await app.inject({ url: `/v1/${started.json().name}`, headers })).json();
    t.assert.equal(ended.metadata.state, 'CANCELLED');
    t.assert.equal(ended.error.code, 1);

    assertError(
      t,
      await app.inject({ method: 'POST', url: '/v1/files:asyncBatchAnnotate', headers, payload: body('gs://docs/in/missing.pdf') }),
      404,
    );
    assertError(
      t,
      await app.inject({
        method: 'POST',
        url: '/v1/files:asyncBatchAnnotate',
        headers,
        payload: body('gs://docs/in/twelve.pdf', 'gs://nobody-bucket/x/'),
      }),
      404,
    );
    assertError(
      t,
      await app.inject({ method: 'POST', url: '/v1/files:asyncBatchAnnotate', headers, payload: body('https://example.com/a.pdf') }),
      400,
    );
    const strangerHeaders = { 'x-goog-api-key': other.keyString! };
    assertError(
      t,
      await app.inject({
        method: 'POST',
        url: '/v1/files:asyncBatchAnnotate',
        headers: strangerHeaders,
        payload: body('gs://docs/in/twelve.pdf'),
      }),
      404,
    );
    assertError(t, await app.inject({ url: '/storage/v1/b/docs/o?prefix=in/', headers: strangerHeaders }), 404);
    assertError(t, await app.inject({ url: '/storage/v1/b/docs/o/in%2Ftwelve.pdf?alt=media', headers: strangerHeaders }), 404);
    assertError(t, await app.inject({ method: 'POST', url: '/storage/v1/b', headers: strangerHeaders, payload: { name: 'docs' } }), 409);
    assertError(t, await app.inject({ url: '/storage/v1/b/docs/o' }), 401);
  });
});

function writeTemp(bytes: Uint8Array, name: string): string {
  const dir = tempDir('legible-upload-');
  const file = path.join(dir, name);
  fs.writeFileSync(file, bytes);
  return file;
}

test('a server killed with SIGKILL in the middle of a 12-page job: the restarted server finishes it, every page once (SQLite)', async (t: TestContext) => {
  const dataDir = tempDir('legible-kill-');
  const setup = createDatabase(`sqlite://${path.join(dataDir, 'legible.db')}`);
  await migrateToLatest(setup.db);
  const { secret: token } = await createAccountsRepository(setup.db, { pepper: CLUSTER_PEPPER }).createAccount('killer', 'cli');
  await setup.destroy();
  const env = { DATA_DIR: dataDir, OPERATION_LEASE_MS: '1500', OPERATION_POLL_MS: '100', OCR_WARM: 'false' };

  let node = await startNode(env);
  t.after(() => node.stop());
  const { projectId, keyString } = await clusterSetupProject(node.url, token, 'killer');
  const storage = googleStorage(node.url, projectId, keyString);
  await storage.createBucket('jobs');
  await storage.bucket('jobs').upload(writeTemp(await twelvePages(), 'doc.pdf'), { destination: 'doc.pdf', resumable: false });
  const headers = { 'x-goog-api-key': keyString };
  const started = await call(node.url, 'POST', '/v1/files:asyncBatchAnnotate', {
    headers,
    body: {
      requests: [
        {
          inputConfig: { gcsSource: { uri: 'gs://jobs/doc.pdf' }, mimeType: 'application/pdf' },
          features: [{ type: 'DOCUMENT_TEXT_DETECTION' }],
          outputConfig: { gcsDestination: { uri: 'gs://jobs/out/' }, batchSize: 2 },
        },
      ],
    },
  });
  t.assert.equal(started.status, 200, JSON.stringify(started.body));
  const name = started.body.name as string;
  const progress = async () => (await call(node.url, 'GET', `/v1/${name}`, { headers })).body.metadata.pagesDone as number;
  await waitFor(async () => (await progress()) >= 2, 120_000, 100);
  const before = await progress();
  t.assert.ok(before < 12, `killed at ${before} of 12 pages`);
  node.process.kill('SIGKILL');
  await node.exited;

  node = await startNode(env);
  await waitFor(async () => (await call(node.url, 'GET', `/v1/${name}`, { headers })).body.done === true, 180_000, 200);
  const done = (await call(node.url, 'GET', `/v1/${name}`, { headers })).body;
  t.assert.equal(done.metadata.state, 'DONE', JSON.stringify(done));
  t.assert.equal(done.metadata.pagesDone, 12);
  const [files] = await googleStorage(node.url, projectId, keyString).bucket('jobs').getFiles({ prefix: 'out/' });
  t.assert.deepEqual(files.map((f) => f.name).sort(), [
    'out/output-1-to-2.json',
    'out/output-11-to-12.json',
    'out/output-3-to-4.json',
    'out/output-5-to-6.json',
    'out/output-7-to-8.json',
    'out/output-9-to-10.json',
  ]);
  const pages = (
    await Promise.all(files.map(async (f) => (JSON.parse((await f.download())[0].toString()) as OutputFile).responses))
  ).flat();
  t.assert.deepEqual(
    pages.map((p) => p.context?.pageNumber).sort((a, b) => a! - b!),
    Array.from({ length: 12 }, (_, i) => i + 1),
  );
  t.assert.ok(pages.every((p) => (p.fullTextAnnotation?.text ?? '').toLowerCase().includes(PAGE_WORDS[p.context!.pageNumber! - 1])));
  // Nothing else under the bucket's storage: no temporary files left by the interrupted write.
  const leftovers = fs.readdirSync(path.join(dataDir, 'storage', 'jobs', 'o')).filter((f) => f.endsWith('.tmp'));
  t.assert.ok(leftovers.length <= 1, `temporary files: ${leftovers}`);
});

test('two nodes on PostgreSQL: the node running a job is killed with SIGKILL, the other finishes it, every page once', {
  skip: CLUSTER_SKIP,
}, async (t: TestContext) => {
  const db = await createClusterDatabase();
  t.after(() => db.drop());
  const shared = tempDir('legible-2nodes-');
  const env = {
    DATABASE_URL: db.url,
    REDIS_URL: CLUSTER_REDIS_URL!,
    STORAGE_DIR: shared,
    DATA_DIR: shared,
    OPERATION_LEASE_MS: '1500',
    OPERATION_POLL_MS: '100',
    OCR_WARM: 'false',
  };
  const nodes = await Promise.all([startNode(env), startNode(env)]);
  t.after(() => Promise.all(nodes.map((n) => n.stop())));
  const [a] = nodes;
  const { projectId, keyString } = await clusterSetupProject(a.url, db.token, db.accountId);
  const storage = googleStorage(a.url, projectId, keyString);
  await storage.createBucket('jobs');
  await storage.bucket('jobs').upload(writeTemp(await twelvePages(), 'doc.pdf'), { destination: 'doc.pdf', resumable: false });
  const headers = { 'x-goog-api-key': keyString };
  const started = await call(a.url, 'POST', '/v1/files:asyncBatchAnnotate', {
    headers,
    body: {
      requests: [
        {
          inputConfig: { gcsSource: { uri: 'gs://jobs/doc.pdf' }, mimeType: 'application/pdf' },
          features: [{ type: 'TEXT_DETECTION' }],
          outputConfig: { gcsDestination: { uri: 'gs://jobs/out/' }, batchSize: 2 },
        },
      ],
    },
  });
  t.assert.equal(started.status, 200, JSON.stringify(started.body));
  const name = started.body.name as string;
  const op = async (node: typeof a) => (await call(node.url, 'GET', `/v1/${name}`, { headers })).body;
  await waitFor(async () => (await op(a)).metadata.pagesDone >= 2, 120_000, 100);

  // The lease holder is named `host:pid:…`: kill that node, whichever of the two took the job.
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  const { rows } = await client.query('select lease_owner from vision_operations');
  await client.end();
  const holderPid = Number(String(rows[0].lease_owner).split(':')[1]);
  const victim = nodes.find((n) => n.process.pid === holderPid)!;
  const survivor = nodes.find((n) => n !== victim)!;
  t.assert.ok(victim, `a node holds the lease (${rows[0].lease_owner})`);
  victim.process.kill('SIGKILL');
  await victim.exited;

  await waitFor(async () => (await op(survivor)).done === true, 180_000, 200);
  const done = await op(survivor);
  t.assert.equal(done.metadata.state, 'DONE', JSON.stringify(done));
  const [files] = await googleStorage(survivor.url, projectId, keyString).bucket('jobs').getFiles({ prefix: 'out/' });
  t.assert.equal(files.length, 6);
  const pages = (
    await Promise.all(files.map(async (f) => (JSON.parse((await f.download())[0].toString()) as OutputFile).responses))
  ).flat();
  t.assert.deepEqual(
    pages.map((p) => p.context?.pageNumber).sort((x, y) => x! - y!),
    Array.from({ length: 12 }, (_, i) => i + 1),
  );
});
