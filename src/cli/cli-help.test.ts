import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { legibleOcr, runCli } from '../../test/helpers/cli-process.ts';
import { test } from 'node:test';

test('--help on every command and `help ocr`: a man-page-like page on stdout, exit 0, nothing run', async () => {
  const cases = [
    ['ocr', 'missing.png', '--lang', 'xx', '-h'],
    ['help', 'ocr'],
    ['serve', '--help'],
    ['migrate', '--help'],
    ['accounts', 'create', '--help'],
    ['tokens', 'create', '--help'],
    ['tokens', 'revoke', '--help'],
  ];
  const results = await Promise.all(cases.map((args) => runCli(args)));
  for (const [i, args] of cases.entries()) {
    const r = results[i];
    assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
    for (const section of ['NAME', 'SYNOPSIS', 'DESCRIPTION', 'OPTIONS', 'EXIT STATUS'])
      assert.match(r.stdout, new RegExp(`^${section}$`, 'm'), args.join(' '));
    assert.equal(r.stderr, '');
  }
  const ocr = results[1];
  assert.match(ocr.stdout, /--format FORMAT[\s\S]*vision[\s\S]*tsv[\s\S]*hocr/);
  assert.match(ocr.stdout, /ar \(ara\)/);
  const overview = await runCli(['--help']);
  assert.equal(overview.code, 0);
  assert.match(overview.stdout, /Commands:[\s\S]*ocr[\s\S]*accounts create/);
  const unknown = await runCli(['help', 'nonsense']);
  assert.equal(unknown.code, 2);
  const none = await runCli([]);
  assert.equal(none.code, 2);
  assert.match(none.stderr, /Usage: legible <command>/);
});

test('--version prints the package version; an unknown command or option says where help is, exit 2', async () => {
  const pkg = JSON.parse(await fs.readFile(path.resolve(import.meta.dirname, '../../package.json'), 'utf8'));
  const version = await runCli(['--version']);
  assert.equal(version.code, 0);
  assert.equal(version.stdout, `legible ${pkg.version}\n`);
  const cmd = await runCli(['frobnicate']);
  assert.equal(cmd.code, 2);
  assert.match(cmd.stderr, /unknown command "frobnicate"[\s\S]*legible --help/);
  const opt = await legibleOcr(['--bogus', 'x.png']);
  assert.equal(opt.code, 2);
  assert.equal(opt.stderr, "error: unknown option --bogus\nRun 'legible ocr --help' for usage.\n");
  const hostile = [
    ['--format', 'pdf', 'x.png'],
    ['--json', '--format', 'tsv', 'x.png'],
    ['--lang', 'x'.repeat(5000), 'x.png'],
    ['--lang', 'eng+klingon', 'x.png'],
  ];
  const refused = await Promise.all(hostile.map((args) => legibleOcr(args)));
  for (const [i, args] of hostile.entries()) {
    const r = refused[i];
    assert.equal(r.code, 2, `${args.join(' ').slice(0, 60)}: ${r.stderr}`);
    assert.ok(r.stderr.length < 2000, 'the message stays short even for a hostile argument');
  }
});
