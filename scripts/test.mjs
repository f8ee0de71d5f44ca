#!/usr/bin/env node
// `npm test`: runs every *.test.ts under src/, test/ and bench/ with node:test (through tsx).
// The repository/route suites run against SQLite always and against PostgreSQL too when
// DATABASE_URL is set (`.ci/run` sets it). Extra arguments are passed on: `npm test -- src/ocr`.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const args = process.argv.slice(2);
const roots = args.filter((a) => !a.startsWith('-'));
const flags = args.filter((a) => a.startsWith('-'));

function collect(dir, out) {
  if (!fs.existsSync(dir)) return out;
  if (fs.statSync(dir).isFile()) return dir.endsWith('.test.ts') ? [...out, dir] : out;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules') continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) collect(full, out);
    else if (entry.name.endsWith('.test.ts')) out.push(full);
  }
  return out;
}

const files = (roots.length ? roots : ['src', 'test', 'bench']).flatMap((r) => collect(r, [])).sort();
if (files.length === 0) {
  console.error('no test files found');
  process.exit(1);
}
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-timeout=300000', ...flags, ...files],
  { stdio: 'inherit', env: { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent' } },
);
process.exit(result.status ?? 1);
