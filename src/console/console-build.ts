import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';

/** The repository root: the console's sources live in `<root>/console`, its bundle in `<root>/dist/console`. */
const REPO_ROOT = path.resolve(import.meta.dirname, '../..');

export interface ConsoleBuildPaths {
  /** The front-end sources: `index.html`, `public/`, `src/`. */
  sourceDir: string;
  /** Where content-addressed bundles are written: `<outRoot>/<sourceHash>/`. */
  outRoot: string;
}

export const DEFAULT_CONSOLE_PATHS: ConsoleBuildPaths = Object.freeze({
  sourceDir: path.join(REPO_ROOT, 'console'),
  outRoot: path.join(REPO_ROOT, 'dist', 'console'),
});

/** Bump when the build itself changes in a way the sources do not show (options, template handling). */
const BUILD_VERSION = '1';

async function listFiles(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath ?? e.path, e.name)) // `parentPath` is Node ≥ 20.12
    .sort();
}

/** A hash of every source file (path and bytes), the build version and preact's version. */
export async function hashConsoleSources(sourceDir: string): Promise<string> {
  const hash = crypto.createHash('sha256').update(BUILD_VERSION);
  for (const file of await listFiles(sourceDir)) {
    hash
      .update(path.relative(sourceDir, file))
      .update('\0')
      .update(await fs.readFile(file))
      .update('\0');
  }
  const preact = JSON.parse(await fs.readFile(path.join(REPO_ROOT, 'node_modules/preact/package.json'), 'utf8')) as { version: string };
  return hash.update(preact.version).digest('hex').slice(0, 16);
}

async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}

/** Bundles the console into `outDir` (which must not exist yet): `index.html` and `assets/`. */
async function bundle(sourceDir: string, outDir: string): Promise<void> {
  const assets = path.join(outDir, 'assets');
  const result = await build({
    entryPoints: [path.join(sourceDir, 'src/main.tsx')],
    bundle: true,
    minify: true,
    format: 'esm',
    target: ['es2021', 'chrome100', 'firefox100', 'safari15'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    outdir: assets,
    entryNames: 'console-[hash]',
    assetNames: '[name]-[hash]',
    sourcemap: 'linked',
    metafile: true,
    logLevel: 'silent',
    legalComments: 'linked',
  });
  // The console takes the server's wire types with `import type` (erased here). A value imported from
  // outside console/ would ship server code to browsers and escape the source hash (a stale bundle).
  const foreign = Object.keys(result.metafile.inputs)
    .map((input) => path.resolve(input))
    .filter((input) => !input.startsWith(sourceDir + path.sep) && !input.split(path.sep).includes('node_modules'));
  if (foreign.length > 0)
    throw new Error(`the console bundle imports code from outside ${sourceDir}: ${foreign.join(', ')} (use \`import type\`)`);
  const outputs = Object.keys(result.metafile.outputs).map((o) => path.basename(o));
  const js = outputs.find((o) => o.endsWith('.js'));
  const css = outputs.find((o) => o.endsWith('.css'));
  if (!js || !css) throw new Error(`console build produced no ${js ? 'CSS' : 'JavaScript'} bundle`);
  await fs.cp(path.join(sourceDir, 'public'), assets, { recursive: true });
  const template = await fs.readFile(path.join(sourceDir, 'index.html'), 'utf8');
  const html = template.replaceAll('%CONSOLE_JS%', `/console/assets/${js}`).replaceAll('%CONSOLE_CSS%', `/console/assets/${css}`);
  await fs.writeFile(path.join(outDir, 'index.html'), html);
}

/**
 * Makes sure a bundle of the current console sources exists and returns its directory. Bundles are
 * content-addressed (`<outRoot>/<hash of sources>/`) and built into a temporary directory that is
 * renamed into place, so several processes starting at once (parallel test files, several nodes on
 * one disk) never see a half-written bundle and a stale bundle is never served. Takes about 1 ms
 * when the bundle is current and a few hundred ms when it has to be built.
 */
export async function ensureConsoleBuilt(paths: ConsoleBuildPaths = DEFAULT_CONSOLE_PATHS): Promise<string> {
  const hash = await hashConsoleSources(paths.sourceDir);
  try {
    return await buildInto(paths, hash);
  } catch (err) {
    // A read-only install (container image, packaged app): build into the temp directory instead.
    if (!['EACCES', 'EROFS', 'EPERM'].includes((err as NodeJS.ErrnoException).code ?? '')) throw err;
    return buildInto({ ...paths, outRoot: path.join(os.tmpdir(), 'legible-console') }, hash);
  }
}

async function buildInto(paths: ConsoleBuildPaths, hash: string): Promise<string> {
  const outDir = path.join(paths.outRoot, hash);
  if (await exists(path.join(outDir, 'index.html'))) return outDir;

  await fs.mkdir(paths.outRoot, { recursive: true });
  const tmp = path.join(paths.outRoot, `.tmp-${process.pid}-${crypto.randomBytes(4).toString('hex')}`);
  try {
    await bundle(paths.sourceDir, tmp);
    await fs.rename(tmp, outDir).catch(async (err: NodeJS.ErrnoException) => {
      // Another process renamed the same bundle into place first: theirs is identical.
      if (!['EEXIST', 'ENOTEMPTY', 'EPERM'].includes(err.code ?? '') || !(await exists(path.join(outDir, 'index.html')))) throw err;
    });
  } finally {
    await fs.rm(tmp, { recursive: true, force: true });
  }
  await removeStaleBundles(paths.outRoot, hash);
  return outDir;
}

/** Best effort: older bundles (from edited sources) are deleted after a minute, never the current one. */
async function removeStaleBundles(outRoot: string, keep: string): Promise<void> {
  const cutoff = Date.now() - 60_000;
  for (const name of await fs.readdir(outRoot)) {
    if (name === keep) continue;
    const dir = path.join(outRoot, name);
    const stat = await fs.stat(dir).catch(() => undefined);
    if (stat && stat.mtimeMs < cutoff) await fs.rm(dir, { recursive: true, force: true }).catch(() => undefined);
  }
}
