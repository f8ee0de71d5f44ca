import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';
import S3rver from 's3rver';
import { crc32cBase64 } from './crc32c.ts';
import { createLocalObjectStore } from './local-object-store.ts';
import type { ObjectStore } from './object-store.ts';
import { createS3ObjectStore } from './s3-object-store.ts';
import { buildTestApp } from '../../test/helpers/build-test-app.ts';
import { createTestAccount, setupProject } from '../../test/helpers/common-route-tests.ts';
import { makePdf } from '../../test/helpers/document-fixtures.ts';
import { googleStorage } from '../../test/helpers/google-storage-client.ts';
import { waitFor } from '../../test/helpers/cluster-node.ts';
import { tempDir } from '../../test/helpers/temp-dir.ts';

/**
 * The ObjectStore contract, run over both backends: the local directory and the S3 backend against
 * a real S3-compatible server (s3rver, pure JS, started here on a random loopback port).
 */

async function startS3rver(t: TestContext): Promise<string> {
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: tempDir('legible-s3rver-') });
  const { port } = await server.run();
  t.after(() => server.close());
  return `http://127.0.0.1:${port}`;
}

const backends: Array<{ name: string; make: (t: TestContext) => Promise<ObjectStore> }> = [
  { name: 'local', make: async () => createLocalObjectStore(tempDir('legible-store-')) },
  {
    name: 's3 (s3rver)',
    make: async (t) =>
      createS3ObjectStore({
        endpoint: await startS3rver(t),
        region: 'us-east-1',
        accessKeyId: 'S3RVER',
        secretAccessKey: 'S3RVER',
        forcePathStyle: true,
        bucketPrefix: 'lg-',
      }),
  },
];

const bytes = (text: string) => new Uint8Array(Buffer.from(text));
const text = (b: Uint8Array) => Buffer.from(b).toString('utf8');

for (const backend of backends) {
  test(`ObjectStore contract: ${backend.name}`, async (t) => {
    const store = await backend.make(t);

    await t.test('buckets: created, exists for the owner, taken for another project', async () => {
      assert.equal(await store.hasBucket('p1', 'results'), false);
      assert.equal(await store.createBucket('p1', 'results'), 'created');
      assert.equal(await store.createBucket('p1', 'results'), 'exists');
      assert.equal(await store.createBucket('p2', 'results'), 'taken');
      assert.equal(await store.hasBucket('p1', 'results'), true);
      assert.equal(await store.hasBucket('p2', 'results'), false);
    });

    await t.test('put then head/get: bytes, size, content type, crc32c and md5 as Cloud Storage computes them', async () => {
      const data = bytes('{"responses":[]}');
      const put = await store.put('p1', 'results', 'out/output-1-to-5.json', data, 'application/json');
      const expected = {
        bucket: 'results',
        name: 'out/output-1-to-5.json',
        size: data.byteLength,
        contentType: 'application/json',
        crc32c: crc32cBase64(data),
        md5Hash: crypto.createHash('md5').update(data).digest('base64'),
      };
      for (const object of [put, await store.head('p1', 'results', 'out/output-1-to-5.json')]) {
        assert.ok(object);
        assert.deepEqual(
          {
            bucket: object.bucket,
            name: object.name,
            size: object.size,
            contentType: object.contentType,
            crc32c: object.crc32c,
            md5Hash: object.md5Hash,
          },
          expected,
        );
        assert.match(object.generation, /^\d+$/);
        assert.ok(!Number.isNaN(Date.parse(object.updated)));
      }
      const got = await store.get('p1', 'results', 'out/output-1-to-5.json', 1024);
      assert.ok(got && got !== 'too-large');
      assert.equal(text(got.bytes), '{"responses":[]}');
      assert.equal(got.object.crc32c, expected.crc32c);
    });

    await t.test('binary bytes and names with spaces, unicode and slashes survive', async () => {
      const data = new Uint8Array(crypto.randomBytes(70_000));
      const name = 'in/scans 2026/été ✓/doc.pdf';
      await store.put('p1', 'results', name, data, 'application/pdf');
      const got = await store.get('p1', 'results', name, 1 << 20);
      assert.ok(got && got !== 'too-large');
      assert.ok(Buffer.from(got.bytes).equals(Buffer.from(data)));
      assert.equal(got.object.contentType, 'application/pdf');
    });

    await t.test("a missing object, a missing bucket and another project's bucket read as absent", async () => {
      assert.equal(await store.head('p1', 'results', 'nope.json'), undefined);
      assert.equal(await store.get('p1', 'results', 'nope.json', 1024), undefined);
      assert.equal(await store.get('p1', 'no-such-bucket', 'x', 1024), undefined);
      assert.deepEqual(await store.list('p1', 'no-such-bucket', ''), []);
      assert.equal(await store.head('p2', 'results', 'out/output-1-to-5.json'), undefined);
      assert.equal(await store.get('p2', 'results', 'out/output-1-to-5.json', 1024), undefined);
      assert.deepEqual(await store.list('p2', 'results', ''), []);
      assert.equal(await store.delete('p2', 'results', 'out/output-1-to-5.json'), false);
      await assert.rejects(store.put('p2', 'results', 'x', bytes('x'), 'text/plain'));
      assert.equal(await store.head('p1', 'results', 'x'), undefined);
    });

    await t.test('an object over maxBytes is refused', async () => {
      assert.equal(await store.get('p1', 'results', 'out/output-1-to-5.json', 3), 'too-large');
    });

    await t.test('list: only names under the prefix, in name order, with the same metadata as head', async () => {
      for (const name of ['out/output-6-to-10.json', 'out/output-11-to-12.json', 'outside.json', 'other/out/a.json']) {
        await store.put('p1', 'results', name, bytes(name), 'application/json');
      }
      const listed = await store.list('p1', 'results', 'out/');
      assert.deepEqual(
        listed.map((o) => o.name),
        ['out/output-1-to-5.json', 'out/output-11-to-12.json', 'out/output-6-to-10.json'],
      );
      for (const object of listed) {
        const head = await store.head('p1', 'results', object.name);
        assert.ok(head);
        assert.deepEqual(
          { size: object.size, contentType: object.contentType, crc32c: object.crc32c, md5Hash: object.md5Hash },
          { size: head.size, contentType: head.contentType, crc32c: head.crc32c, md5Hash: head.md5Hash },
        );
      }
      assert.deepEqual(
        (await store.list('p1', 'results', 'out')).map((o) => o.name),
        ['out/output-1-to-5.json', 'out/output-11-to-12.json', 'out/output-6-to-10.json', 'outside.json'],
      );
      assert.equal((await store.list('p1', 'results', '')).length, 6);
      assert.deepEqual(await store.list('p1', 'results', 'zzz'), []);
    });

    await t.test('rewriting a batch file replaces it whole: one object, the new bytes, a newer generation', async () => {
      const first = await store.head('p1', 'results', 'out/output-6-to-10.json');
      const next = bytes('{"responses":[{"context":{"pageNumber":6}}]}');
      const written = await store.put('p1', 'results', 'out/output-6-to-10.json', next, 'application/json');
      assert.ok(first && BigInt(written.generation) >= BigInt(first.generation));
      const got = await store.get('p1', 'results', 'out/output-6-to-10.json', 1024);
      assert.ok(got && got !== 'too-large');
      assert.equal(text(got.bytes), text(next));
      assert.equal(got.object.size, next.byteLength);
      assert.equal(got.object.crc32c, crc32cBase64(next));
      assert.equal((await store.list('p1', 'results', 'out/output-6')).length, 1);
      // Concurrent writers of the same batch: the reader sees one whole version, never a mix.
      const versions = ['A', 'B', 'C', 'D'].map((c) => bytes(c.repeat(50_000)));
      await Promise.all(versions.map((v) => store.put('p1', 'results', 'out/race.json', v, 'application/json')));
      const raced = await store.get('p1', 'results', 'out/race.json', 1 << 20);
      assert.ok(raced && raced !== 'too-large');
      assert.ok(versions.some((v) => Buffer.from(v).equals(Buffer.from(raced.bytes))));
    });

    await t.test('delete: true once, then the object is gone; false for a missing object', async () => {
      assert.equal(await store.delete('p1', 'results', 'outside.json'), true);
      assert.equal(await store.head('p1', 'results', 'outside.json'), undefined);
      assert.equal(await store.get('p1', 'results', 'outside.json', 1024), undefined);
      assert.equal(await store.delete('p1', 'results', 'outside.json'), false);
      assert.ok(!(await store.list('p1', 'results', '')).some((o) => o.name === 'outside.json'));
    });

    await t.test('hostile names do not escape or reach the bucket marker', async () => {
      for (const name of ['.legible-bucket.json', 'bucket.json', '../results/x', '%2E%2E/x']) {
        assert.equal(await store.head('p1', 'results', name), undefined, name);
      }
      // The project marker is not an object: it is neither listed nor readable, and the bucket stays the project's.
      assert.ok(!(await store.list('p1', 'results', '.')).some((o) => o.name.includes('legible-bucket')));
      assert.equal(await store.createBucket('p2', 'results'), 'taken');
    });
  });
}

test('S3 backend: an unreachable store or refused credentials is an error, not a missing bucket', async (t) => {
  const endpoint = await startS3rver(t);
  const options = { region: 'us-east-1', forcePathStyle: true, bucketPrefix: '' };
  // An unknown access key (s3rver 3.7.1 did not refuse a wrong secret with SDK v3's signatures, so the key is what differs).
  const wrongKey = createS3ObjectStore({ ...options, endpoint, accessKeyId: 'NOT-A-KEY', secretAccessKey: 'wrong-secret' });
  await assert.rejects(wrongKey.createBucket('p1', 'results'));
  await assert.rejects(wrongKey.hasBucket('p1', 'results'));
  const unreachable = createS3ObjectStore({ ...options, endpoint: 'http://127.0.0.1:1', accessKeyId: 'a', secretAccessKey: 'b' });
  await assert.rejects(unreachable.list('p1', 'results', ''));
});

test('end to end with STORAGE_BACKEND=s3: @google-cloud/storage uploads a PDF, an async files job writes its batches to the S3 store', async (t) => {
  const endpoint = await startS3rver(t);
  const s3Env = { S3_ENDPOINT: endpoint, S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER', S3_BUCKET_PREFIX: 'e2e-' };
  const { app, database } = await buildTestApp(t, 'sqlite', {
    DATA_DIR: tempDir('legible-s3-e2e-'),
    OPERATION_POLL_MS: '100',
    STORAGE_BACKEND: 's3',
    ...s3Env,
  });
  const owner = await createTestAccount(database, 'acme');
  const { keyString } = await setupProject(app, owner, 's3-project', { apis: ['ocr'], key: {} });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const storage = googleStorage(base, 's3-project', keyString!);
  await storage.createBucket('docs');
  await assert.rejects(storage.createBucket('docs'), (err: { code?: number }) => err.code === 409);
  await storage
    .bucket('docs')
    .file('in/two.pdf')
    .save(
      Buffer.from(
        await makePdf([
          { kind: 'text', lines: ['papa page'] },
          { kind: 'text', lines: ['quebec page'] },
        ]),
      ),
      { resumable: false, contentType: 'application/pdf' },
    );

  const headers = { 'x-goog-api-key': keyString! };
  const started = await app.inject({
    method: 'POST',
    url: '/v1/files:asyncBatchAnnotate',
    headers,
    payload: {
      requests: [
        {
          inputConfig: { gcsSource: { uri: 'gs://docs/in/two.pdf' }, mimeType: 'application/pdf' },
          features: [{ type: 'TEXT_DETECTION' }],
          outputConfig: { gcsDestination: { uri: 'gs://docs/out/' }, batchSize: 1 },
        },
      ],
    },
  });
  assert.equal(started.statusCode, 200, started.body);
  await waitFor(async () => (await app.inject({ url: `/v1/${started.json().name}`, headers })).json().done === true, 120_000, 100);
  const op = (await app.inject({ url: `/v1/${started.json().name}`, headers })).json();
  assert.equal(op.error, undefined, JSON.stringify(op.error));

  const [files] = await storage.bucket('docs').getFiles({ prefix: 'out/' });
  assert.deepEqual(files.map((f) => f.name).sort(), ['out/output-1-to-1.json', 'out/output-2-to-2.json']);
  for (const [i, word] of ['papa', 'quebec'].entries()) {
    const [downloaded] = await storage
      .bucket('docs')
      .file(`out/output-${i + 1}-to-${i + 1}.json`)
      .download();
    const page = JSON.parse(downloaded.toString()).responses[0];
    assert.equal(page.context.pageNumber, i + 1);
    assert.match(page.fullTextAnnotation.text.toLowerCase(), new RegExp(word));
  }
  // The objects are in the S3 store itself, in the prefixed bucket, not under DATA_DIR.
  const direct = createS3ObjectStore({
    endpoint,
    region: 'us-east-1',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
    bucketPrefix: 'e2e-',
  });
  assert.deepEqual(
    (await direct.list('s3-project', 'docs', '')).map((o) => o.name),
    ['in/two.pdf', 'out/output-1-to-1.json', 'out/output-2-to-2.json'],
  );
});
