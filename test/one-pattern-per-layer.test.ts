// The storage layer's rules from docs/architecture.md ("One pattern per layer"), checked on the
// source text: a repository is `createXRepository(db, deps?)`, only repositories write audit rows,
// and no route reaches for the key cache through the `app.keyVerifier` decorator.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

const srcRoot = path.resolve(import.meta.dirname, '../src');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

const files = sourceFiles(srcRoot).map((file) => ({
  name: path.relative(srcRoot, file).split(path.sep).join('/'),
  text: fs.readFileSync(file, 'utf8'),
}));

test('every *-repository.ts exports one createXRepository factory and no other async function', () => {
  const repositories = files.filter((f) => f.name.endsWith('-repository.ts'));
  assert.ok(repositories.length >= 8, `found ${repositories.length} repositories`);
  const wrong = repositories.flatMap((f) => {
    const factories = [...f.text.matchAll(/^export function (create\w+Repository)\(db: Kysely<Database>/gm)].map((m) => m[1]);
    const freeAsync = [...f.text.matchAll(/^export async function (\w+)/gm)].map((m) => m[1]);
    const problems: string[] = [];
    if (factories.length !== 1) problems.push(`${f.name}: ${factories.length} createXRepository(db, …) factories`);
    for (const name of freeAsync) problems.push(`${f.name}: exported async function ${name}`);
    return problems;
  });
  assert.deepEqual(wrong, []);
});

test('only repositories write audit rows (recordAudit, in the transaction of the change)', () => {
  const writers = files.filter((f) => /\brecordAudit\(/.test(f.text) && f.name !== 'audit/audit-log.ts').map((f) => f.name);
  assert.deepEqual(
    writers.filter((name) => !name.endsWith('-repository.ts')),
    [],
  );
});

test('no route invalidates the key cache itself: repositories do, after the commit', () => {
  const users = files.filter((f) => /\bapp\.keyVerifier\b|\.invalidate(Key|Project)\(/.test(f.text)).map((f) => f.name);
  const expected = [
    'api-keys/api-keys-repository.ts',
    'api-keys/key-verifier.ts',
    'cluster/cluster-invalidation.ts',
    'projects/project-apis-repository.ts',
    'projects/projects-repository.ts',
  ];
  assert.deepEqual(users.sort(), expected);
});
