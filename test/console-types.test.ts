// The console's wire types are the server's TypeBox schemas (console/src/api/api-types.ts imports
// them as types), so a schema change that a screen does not follow fails here, in `npm test`.
import { test, type TestContext } from 'node:test';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');

test('console: `tsc -p console` compiles every screen against the server schemas', (t: TestContext) => {
  const r = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '--noEmit', '-p', 'console'], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 180_000,
  });
  t.assert.equal(r.status, 0, r.stdout + r.stderr);
});

test('console: api-types.ts declares no shape of its own (each comes from a schema under src/)', (t: TestContext) => {
  const source = fs.readFileSync(path.join(ROOT, 'console/src/api/api-types.ts'), 'utf8');
  t.assert.doesNotMatch(source, /^\s*(export\s+)?interface\s/m);
  t.assert.doesNotMatch(source, /^\s*(export\s+)?type\s+\w+\s*=\s*\{/m, 'no object type literal');
});
