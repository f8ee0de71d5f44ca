// No import cycles in src/: neither between files nor between feature folders (src/<folder>/).
// The graph is built with the TypeScript compiler's own import scanner, type-only imports
// included (a type-only cycle still ties two modules together for a reader).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import ts from 'typescript';

const srcRoot = path.resolve(import.meta.dirname, '../src');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    const isSource = /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') && !entry.name.endsWith('.test.ts');
    return isSource ? [full] : [];
  });
}

function resolveImport(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = path.resolve(path.dirname(from), specifier);
  const candidates = [
    base,
    base.replace(/\.js$/, '.ts'),
    base.replace(/\.js$/, '.tsx'),
    `${base}.ts`,
    `${base}.tsx`,
    path.join(base, 'index.ts'),
  ];
  return candidates.find((candidate) => /\.tsx?$/.test(candidate) && fs.existsSync(candidate));
}

function importGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of sourceFiles(srcRoot)) {
    const info = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
    const targets = new Set<string>();
    for (const ref of info.importedFiles) {
      const target = resolveImport(file, ref.fileName);
      if (target) targets.add(target);
    }
    graph.set(file, targets);
  }
  return graph;
}

/** Every cycle found by a depth-first search, each reported once as a path a → b → … → a. */
function findCycles(graph: Map<string, Set<string>>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string) => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') cycles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of [...graph.keys()].sort()) if (!state.has(node)) visit(node);
  return cycles;
}

const relative = (file: string) => path.relative(srcRoot, file);
/** src/app.ts and the other top-level files are the composition root and shared basics, not a folder. */
const folderOf = (file: string) => {
  const parts = relative(file).split(path.sep);
  return parts.length > 1 ? parts[0] : undefined;
};

/**
 * Files that assemble features rather than belong to one: the database schema (every feature's
 * tables), the OpenAPI document and the admin app. Like src/app.ts they may import any folder;
 * their own folder does not inherit those edges.
 */
const COMPOSITION = new Set(['db/tables.ts', 'http/openapi.ts', 'http/admin-app.ts']);

/**
 * Folder cycles not yet untangled (issue 18). Account-token authentication (accounts/account-auth.ts)
 * guards the audit routes and the idempotency plugin, while account changes write audit rows, which
 * mark the idempotency claim. The Vision API spans vision/, operations/ and storage/ (long-running
 * operations and Cloud Storage sources call the same annotate code the synchronous routes do).
 * This list may only shrink: a new cycle fails the test, and so does an entry that is no longer one.
 */
const KNOWN_FOLDER_CYCLES = [
  'accounts → audit → accounts',
  'accounts → audit → idempotency → accounts',
  'operations → storage → vision → operations',
  'operations → vision → operations',
];

/** A cycle written from its alphabetically first folder, so the same cycle always reads the same. */
function canonical(cycle: string[]): string {
  const ring = cycle.slice(0, -1);
  const start = ring.indexOf([...ring].sort()[0]);
  const rotated = [...ring.slice(start), ...ring.slice(0, start)];
  return [...rotated, rotated[0]].join(' → ');
}

test('no file in src/ imports itself through a cycle', () => {
  const cycles = findCycles(importGraph()).map((cycle) => cycle.map(relative).join(' → '));
  assert.deepEqual(cycles, []);
});

test('no feature folder in src/ imports itself through another folder', () => {
  const folders = new Map<string, Set<string>>();
  for (const [file, targets] of importGraph()) {
    const from = folderOf(file);
    if (!from || COMPOSITION.has(relative(file).split(path.sep).join('/'))) continue;
    const edges = folders.get(from) ?? new Set<string>();
    folders.set(from, edges);
    for (const target of targets) {
      const to = folderOf(target);
      if (to && to !== from) edges.add(to);
    }
  }
  const cycles = [...new Set(findCycles(folders).map(canonical))].sort();
  assert.deepEqual(cycles, KNOWN_FOLDER_CYCLES);
});
