import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';

const BIN = path.resolve(import.meta.dirname, '../../bin/legible.js');

function legible(args: string[], stdin?: Buffer | 'inherit'): Promise<{ code: number; stdout: string; stderr: string }> {
  return run(['ocr', ...args], stdin);
}

/** The real CLI process (`bin/legible.js`), optionally fed on standard input. */
function run(args: string[], stdin?: Buffer | 'inherit'): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, LOG_LEVEL: 'silent' }, stdio: ['pipe', 'pipe', 'pipe'] });
    if (Buffer.isBuffer(stdin)) child.stdin.end(stdin);
    else child.stdin.end();
    child.stdin.on('error', () => {}); // the CLI may stop reading an oversized input early
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

test('--help on every command and `help ocr`: a man-page-like page on stdout, exit 0, nothing run', async () => {
  const cases = [['ocr', 'missing.png', '--lang', 'xx', '-h'], ['help', 'ocr'], ['serve', '--help'], ['migrate', '--help'], ['accounts', 'create', '--help'], ['tokens', 'create', '--help'], ['tokens', 'revoke', '--help']];
  const results = await Promise.all(cases.map((args) => run(args)));
  for (const [i, args] of cases.entries()) {
    const r = results[i];
    assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
    for (const section of ['NAME', 'SYNOPSIS', 'DESCRIPTION', 'OPTIONS', 'EXIT STATUS']) assert.match(r.stdout, new RegExp(`^${section}$`, 'm'), args.join(' '));
    assert.equal(r.stderr, '');
  }
  const ocr = results[1];
  assert.match(ocr.stdout, /--format FORMAT[\s\S]*vision[\s\S]*tsv[\s\S]*hocr/);
  assert.match(ocr.stdout, /ar \(ara\)/);
  const overview = await run(['--help']);
  assert.equal(overview.code, 0);
  assert.match(overview.stdout, /Commands:[\s\S]*ocr[\s\S]*accounts create/);
  const unknown = await run(['help', 'nonsense']);
  assert.equal(unknown.code, 2);
  const none = await run([]);
  assert.equal(none.code, 2);
  assert.match(none.stderr, /Usage: legible <command>/);
});

test('--version prints the package version; an unknown command or option says where help is, exit 2', async () => {
  const pkg = JSON.parse(await fs.readFile(path.resolve(import.meta.dirname, '../../package.json'), 'utf8'));
  const version = await run(['--version']);
  assert.equal(version.code, 0);
  assert.equal(version.stdout, `legible ${pkg.version}\n`);
  const cmd = await run(['frobnicate']);
  assert.equal(cmd.code, 2);
  assert.match(cmd.stderr, /unknown command "frobnicate"[\s\S]*legible --help/);
  const opt = await legible(['--bogus', 'x.png']);
  assert.equal(opt.code, 2);
  assert.equal(opt.stderr, "error: unknown option --bogus\nRun 'legible ocr --help' for usage.\n");
  const hostile = [['--format', 'pdf', 'x.png'], ['--json', '--format', 'tsv', 'x.png'], ['--lang', 'x'.repeat(5000), 'x.png'], ['--lang', 'eng+klingon', 'x.png']];
  const refused = await Promise.all(hostile.map((args) => legible(args)));
  for (const [i, args] of hostile.entries()) {
    const r = refused[i];
    assert.equal(r.code, 2, `${args.join(' ').slice(0, 60)}: ${r.stderr}`);
    assert.ok(r.stderr.length < 2000, 'the message stays short even for a hostile argument');
  }
});
