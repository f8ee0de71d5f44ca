import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';

const ROOT = path.resolve(import.meta.dirname, '..');

// Biome (biome.json) formats and lints every TypeScript file; `npm run format` fixes what it can.
test('the code is formatted and passes the linter (biome ci)', () => {
  const biome = path.join(ROOT, 'node_modules', '.bin', 'biome');
  const run = spawnSync(biome, ['ci', '--colors=off', '--diagnostic-level=error', '.'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}\nRun \`npm run format\` and fix what the linter reports.`);
});
