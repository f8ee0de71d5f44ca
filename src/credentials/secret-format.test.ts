import { test, type TestContext } from 'node:test';
import fc from 'fast-check';
import { digestsEqual, generateSecret, hashSecret, parseSecret, SECRET_PREFIXES, type SecretKind } from './secret-format.ts';
import { newId } from './new-id.ts';

const KINDS = Object.keys(SECRET_PREFIXES) as SecretKind[];

test('generated secrets parse back to their kind, with a hint of prefix + 4 chars', (t: TestContext) => {
  for (const kind of KINDS) {
    const { secret, hint } = generateSecret(kind);
    t.assert.deepEqual(parseSecret(secret), { kind });
    t.assert.ok(secret.startsWith(SECRET_PREFIXES[kind]));
    t.assert.match(secret, /^[a-z_]+[0-9A-Za-z]{49}$/, 'underscores only in the prefix: a double-click selects it all');
    t.assert.equal(hint, secret.slice(0, SECRET_PREFIXES[kind].length + 4));
  }
  t.assert.notEqual(generateSecret('api_key').secret, generateSecret('api_key').secret);
});

test('keys issued by earlier releases still parse (the checksum encoding is stable)', (t: TestContext) => {
  t.assert.deepEqual(parseSecret('lgb_key_s2bk5LJQDk8YCgPXLV2PSKLpOvintTSXLSY51BjSuSW2JFohL'), { kind: 'api_key' });
  t.assert.equal(parseSecret('lgb_key_s2bk5LJQDk8YCgPXLV2PSKLpOvintTSXLSY51BjSuSW2JFohM'), null);
});

test('any single-character change is refused by the checksum (property)', (t: TestContext) => {
  const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  fc.assert(
    fc.property(fc.constantFrom(...KINDS), fc.nat(), fc.nat(61), (kind, pos, offset) => {
      const { secret } = generateSecret(kind);
      const i = SECRET_PREFIXES[kind].length + (pos % (secret.length - SECRET_PREFIXES[kind].length));
      const replacement = alphabet[(alphabet.indexOf(secret[i]) + 1 + offset) % 62];
      if (replacement === secret[i]) return;
      t.assert.equal(parseSecret(secret.slice(0, i) + replacement + secret.slice(i + 1)), null);
    }),
    { numRuns: 500 },
  );
});

test('arbitrary strings never parse and never throw (property)', (t: TestContext) => {
  fc.assert(
    fc.property(
      fc.oneof(
        fc.string(),
        fc.string({ unit: 'grapheme' }),
        fc.constantFrom('lgb_key_', 'lgb_at_', 'lgb_cs_').chain((p) => fc.string().map((s) => p + s)),
      ),
      (s) => {
        t.assert.equal(parseSecret(s), null);
      },
    ),
    { numRuns: 1000 },
  );
  t.assert.equal(parseSecret('x'.repeat(1_000_000)), null);
  t.assert.equal(parseSecret(undefined as never), null);
});

test('hashSecret: SHA-256 without pepper, HMAC with it; constant-time compare', (t: TestContext) => {
  const { secret } = generateSecret('api_key');
  const plain = hashSecret(secret);
  const peppered = hashSecret(secret, 'a-long-server-pepper');
  t.assert.match(plain, /^[0-9a-f]{64}$/);
  t.assert.notEqual(plain, peppered);
  t.assert.equal(hashSecret(secret, 'a-long-server-pepper'), peppered);
  t.assert.ok(digestsEqual(plain, hashSecret(secret)));
  t.assert.ok(!digestsEqual(plain, peppered));
  t.assert.ok(!digestsEqual(plain, plain.slice(0, 10)));
  t.assert.ok(!digestsEqual('', ''));
});

test('newId is time-sortable and unique within a millisecond', (t: TestContext) => {
  const ids = Array.from({ length: 2000 }, () => newId('k'));
  t.assert.equal(new Set(ids).size, ids.length);
  t.assert.deepEqual([...ids].sort(), ids);
});
