import { test, type TestContext } from 'node:test';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { SHARED_DIR, sharedMissing } from './helpers/shared-dir.ts';

/**
 * The README and docs/ run as written: every ```sh block is extracted and run with bash, in file
 * order and in one shell (later blocks use the variables of earlier ones), against a real server
 * started by the quickstart's `npm start` (compiled, as users run it) on a random port with a fresh
 * DATA_DIR, from the repository's folder. Two substitutions only: the port (`http://127.0.0.1:8080` →
 * the random one) and `../shared` when LEGIBLE_SHARED_DIR points elsewhere. Blocks that cannot run
 * here are listed below with the reason.
 */

const ROOT = path.resolve(import.meta.dirname, '..');

/** First line of a block that is not run → why. Every other block runs. */
const NOT_RUN: Record<string, string> = {
  'npm ci && npm start      # installs, compiles, then serves http://127.0.0.1:8080 on the embedded store (./data)':
    'installs dependencies (tests never run npm ci); this test runs its `npm start`',
  'npm test                 # the whole suite (SQLite; PostgreSQL too when DATABASE_URL is set)': 'the suite this test belongs to',
  'docker build -t legible:0.1.0 .': 'no Docker engine in CI',
  'docker exec legible legible accounts create acme                  # Docker': 'no Docker engine or Kubernetes cluster in CI',
};

function shellBlocks(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  return [...text.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

function run(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

test('every shell block of README.md and docs/*.md is run or listed with a reason', () => {
  const files = [
    path.join(ROOT, 'README.md'),
    ...fs
      .readdirSync(path.join(ROOT, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => path.join(ROOT, 'docs', f)),
  ];
  const firstLines = files.flatMap((f) => shellBlocks(f).map((b) => b.split('\n')[0]));
  for (const line of Object.keys(NOT_RUN))
    if (!firstLines.includes(line)) throw new Error(`NOT_RUN lists a block that no longer exists: ${line}`);
});

const skip = sharedMissing('data/vision-samples/text.jpg');

test('README: the walk-through, key management, curl and `legible ocr` blocks run against a listening server', {
  skip,
  timeout: 300_000,
}, async (t: TestContext) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'legible-readme-'));
  t.after(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, LOG_LEVEL: 'warn', OCR_WORKERS: '1', OCR_WARM: 'false' };
  const server = spawn('npm', ['start'], {
    cwd: ROOT,
    env: { ...env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let serverLog = '';
  server.stderr.on('data', (d) => (serverLog += d));
  t.after(() => {
    server.kill('SIGTERM');
  });
  for (let i = 0; ; i++) {
    const up = await fetch(`${base}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (i > 240 || server.exitCode !== null) throw new Error(`server did not start: ${serverLog}`);
    await new Promise((r) => setTimeout(r, 500));
  }

  const blocks = shellBlocks(path.join(ROOT, 'README.md')).filter((b) => !(b.split('\n')[0] in NOT_RUN));
  t.assert.equal(blocks.length, 4, 'walk-through, key management, curl, legible ocr');
  const script = [
    'set -euo pipefail',
    // Markers on lines of their own (curl prints no final newline).
    ...blocks.map((b, i) => `echo; echo "::block ${i}::"\n${b}`),
    'echo; echo "::done::"',
  ]
    .join('\n')
    .replaceAll('http://127.0.0.1:8080', base)
    .replaceAll('../shared/', `${SHARED_DIR}/`);
  const r = await run('bash', ['-c', script], { ...env, LOG_LEVEL: 'silent' }, ROOT);
  t.assert.equal(r.code, 0, `bash exited ${r.code}\n--- stdout\n${r.stdout.slice(-3000)}\n--- stderr\n${r.stderr.slice(-3000)}`);
  const out = r.stdout.split(/^::block \d+::$/m).slice(1);
  t.assert.ok(r.stdout.includes('::done::'));
  const error = /"error":\{"code".{0,300}/.exec(r.stdout);
  t.assert.equal(error, null, `a step answered with an error: ${error?.[0]}`);
  const [walk, manage, curl, cli] = out;
  t.assert.ok(/"projectId":"demo-project"/.test(walk), `walk: /"projectId":"demo-project"/ in ${walk.slice(0, 400)}`);
  t.assert.ok(/"api":"ocr",[^}]*"state":"ENABLED"/.test(walk), `walk: /"api":"ocr",[^}]*"state":"ENABLED"/ in ${walk.slice(0, 400)}`);
  t.assert.ok(
    /"textAnnotations":\[\{"locale":"en","description":"[^"]*System Software Update/.test(walk),
    `walk: /"textAnnotations":[{"locale":"en","description":"[^"]*System Software Update/ in ${walk.slice(0, 400)}`,
  );
  t.assert.ok(
    /"allowedIps":\["203\.0\.113\.0\/24","2001:db8::\/32"\]/.test(manage),
    `manage: /"allowedIps":["203.0.113.0/24","2001:db8::/32"]/ in ${manage.slice(0, 400)}`,
  );
  t.assert.ok(/Revoked token tok-/.test(manage), `manage: /Revoked token tok-/ in ${manage.slice(0, 400)}`);
  t.assert.ok(/"auditLogEntries"|"entries"/.test(manage), `manage: /"auditLogEntries"|"entries"/ in ${manage.slice(0, 400)}`);
  t.assert.ok(/"description":"Wake up human!\\n"/.test(curl), `curl: /"description":"Wake up human!\\n"/ in ${curl.slice(0, 400)}`);
  t.assert.ok(/^Wake up human!$/m.test(cli), `cli: /^Wake up human!$/m in ${cli.slice(0, 400)}`);
  t.assert.ok(/^\{"responses":\[\{"textAnnotations":/m.test(cli), `cli: /^{"responses":[{"textAnnotations":/m in ${cli.slice(0, 400)}`);
  t.assert.ok(!fs.existsSync(path.join(ROOT, 'words.tsv')), 'the README cleans up after itself');
});
