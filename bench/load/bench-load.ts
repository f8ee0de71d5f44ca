/**
 * `npm run bench:load`: load and latency of real server processes, measured from this (second)
 * process over loopback. Prints Markdown tables (README "Benchmarks → Load").
 *   (a) the auth path alone (a mistyped key; a valid key of a project whose ocr api is disabled)
 *       against a bare Fastify route, in the same run: req/s and server CPU per request;
 *   (b) OCR throughput and p50/p95/p99 latency at 1, 2, 4, 8 concurrent clients on a 1280×720 photo;
 *   (c) the same across two nodes sharing PostgreSQL and Redis (needs DATABASE_URL=postgres://… and REDIS_URL).
 * Options (env): BENCH_SECONDS (per OCR level, default 12), BENCH_AUTH_SECONDS (per auth run, default 5),
 * BENCH_ONLY=auth (part (a) only).
 */
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import autocannon from 'autocannon';
import { createStore, PEPPER, projectKey, type BenchStore } from './bench-store.ts';
import { SERVER_ENTRY, spawnServer, type Server } from './spawn-server.ts';
import { closedLoop, percentile, type ClosedLoopResult } from './closed-loop.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const OCR_SECONDS = Number(process.env.BENCH_SECONDS ?? 12);
const AUTH_SECONDS = Number(process.env.BENCH_AUTH_SECONDS ?? 5);
const AUTH_ROUNDS = 5;
/** `auth` runs (a) only. */
const ONLY = process.env.BENCH_ONLY;
const PG_URL = process.env.DATABASE_URL?.startsWith('postgres') ? process.env.DATABASE_URL : undefined;
const REDIS_URL = process.env.REDIS_URL;
const PHOTO_DIR = path.resolve(ROOT, '../shared/data/ocr-dev/images');

async function photo(): Promise<{ base64: string; name: string }> {
  const candidates = fs.existsSync(PHOTO_DIR)
    ? fs
        .readdirSync(PHOTO_DIR)
        .filter((f) => f.startsWith('ic15_'))
        .sort()
    : [];
  for (const file of candidates) {
    const bytes = fs.readFileSync(path.join(PHOTO_DIR, file));
    const meta = await sharp(bytes).metadata();
    if (meta.width === 1280 && meta.height === 720) return { base64: bytes.toString('base64'), name: `ocr-dev ${file}` };
  }
  const lines = Array.from(
    { length: 12 },
    (_, i) =>
      `<text x="60" y="${80 + i * 52}" font-size="36" font-family="sans-serif">Street sign ${i + 1}: OPEN 24 HOURS · EXIT ${i * 3}</text>`,
  );
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1280" height="720"><rect width="100%" height="100%" fill="#ddd"/>${lines.join('')}</svg>`;
  return { base64: (await sharp(Buffer.from(svg)).jpeg().toBuffer()).toString('base64'), name: 'rendered 1280×720 text' };
}

const fmt = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : '–');

/** CPU seconds (user + system, every thread) a process has used so far: /proc/<pid>/stat fields 14–15, in clock ticks (USER_HZ = 100 on Linux). */
function cpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

interface AuthRun {
  rps: number;
  cpuUs: number;
  p50: number;
  p99: number;
  codes: Record<string, number>;
  errors: number;
}

/** Starts a fresh bare server and a fresh Legible node; the keys made on the first node live in the store. */
async function authServers(store: BenchStore): Promise<{ bare: Server; node: Server }> {
  const [bare, node] = await Promise.all([
    spawnServer('bench/load/bare-server.ts', {}),
    spawnServer(SERVER_ENTRY, { ...store.env, LOG_LEVEL: 'warn', SECRET_PEPPER: PEPPER, OCR_WORKERS: '1' }),
  ]);
  return { bare, node };
}

async function authPath(store: BenchStore): Promise<string> {
  const body = JSON.stringify({ requests: [{ image: { content: 'aGVsbG8=' }, features: [{ type: 'TEXT_DETECTION' }] }] });
  const names = [
    'bare Fastify route, same 403 body (baseline)',
    'auth path: mistyped key → 401',
    'auth path: valid key, ocr disabled → 403',
  ];
  const runs = new Map<string, AuthRun[]>(names.map((name) => [name, []]));
  let keys: { disabledKey: string; typoKey: string } | undefined;
  // Every round starts fresh server processes: the same code measured in two processes of this
  // 2-core VM differed by up to 1.8× in CPU per request, so one process per target
  // would let a single unlucky process decide the figure. Within a round the targets are
  // interleaved, in alternating order, so drift in what else the machine runs hits all of them alike;
  // each target's figure is its median over the rounds.
  for (let round = 0; round < AUTH_ROUNDS; round += 1) {
    const { bare, node } = await authServers(store);
    try {
      if (!keys) {
        const disabledKey = await projectKey(node.url, store.token, store.accountId, true);
        const last = disabledKey.at(-1) === 'A' ? 'B' : 'A';
        keys = { disabledKey, typoKey: disabledKey.slice(0, -1) + last }; // one character off: the checksum fails
      }
      const targets: Array<{ name: string; url: string; pid: number; headers: Record<string, string> }> = [
        { name: names[0], url: `${bare.url}/bare`, pid: bare.child.pid!, headers: {} },
        { name: names[1], url: `${node.url}/v1/images:annotate`, pid: node.child.pid!, headers: { 'x-goog-api-key': keys.typoKey } },
        { name: names[2], url: `${node.url}/v1/images:annotate`, pid: node.child.pid!, headers: { 'x-goog-api-key': keys.disabledKey } },
      ];
      for (const target of round % 2 === 0 ? targets : [...targets].reverse()) {
        const opts = {
          url: target.url,
          method: 'POST',
          connections: 10,
          headers: { 'content-type': 'application/json', ...target.headers },
          body,
        };
        await autocannon({ ...opts, duration: 2 }); // warm-up of this process (JIT, caches)
        const cpuBefore = cpuSeconds(target.pid);
        const r = await autocannon({ ...opts, duration: AUTH_SECONDS });
        const cpuUs = ((cpuSeconds(target.pid) - cpuBefore) * 1e6) / Math.max(1, r.requests.total);
        const codes = Object.fromEntries(Object.entries(r.statusCodeStats).map(([c, s]) => [c, s.count]));
        runs.get(target.name)!.push({ rps: r.requests.average, cpuUs, p50: r.latency.p50, p99: r.latency.p99, codes, errors: r.errors });
      }
    } finally {
      await Promise.all([node.stop(), bare.stop()]);
    }
  }
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
  const baseline = median(runs.get(names[0])!.map((r) => r.rps));
  const baselineCpu = median(runs.get(names[0])!.map((r) => r.cpuUs));
  const rows = names.map((name) => {
    const rs = runs.get(name)!;
    const rps = median(rs.map((r) => r.rps));
    const codes: Record<string, number> = {};
    for (const r of rs) for (const [c, n] of Object.entries(r.codes)) codes[c] = (codes[c] ?? 0) + n;
    const errors = rs.reduce((sum, r) => sum + r.errors, 0);
    const statuses =
      Object.entries(codes)
        .map(([c, n]) => `${c}×${n}`)
        .join(' ') + (errors ? ` errors×${errors}` : '');
    const cpuUs = median(rs.map((r) => r.cpuUs));
    return `| ${name} | ${fmt(rps)} | ${fmt((100 * rps) / baseline)} % | ${fmt(cpuUs)} | ${fmt((100 * baselineCpu) / cpuUs)} % | ${fmt(median(rs.map((r) => r.p50)), 1)} | ${fmt(median(rs.map((r) => r.p99)), 1)} | ${statuses} |`;
  });
  return [
    `(a) Auth path vs a bare Fastify route answering the same bytes — 10 connections, median of ${AUTH_ROUNDS} rounds (fresh server processes each) of interleaved ${AUTH_SECONDS}-s runs, LOG_LEVEL=warn`,
    '',
    '| target | req/s | vs bare | server CPU µs/req | capacity vs bare | p50 ms | p99 ms | statuses |',
    '|---|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

function ocrRow(r: ClosedLoopResult): string {
  const ok = r.statuses['200'] ?? 0;
  const codes = Object.entries(r.statuses)
    .map(([c, n]) => `${c}×${n}`)
    .join(' ');
  return `| ${r.concurrency} | ${fmt(ok / r.seconds, 2)} | ${fmt(percentile(r.latenciesMs, 50))} | ${fmt(percentile(r.latenciesMs, 95))} | ${fmt(percentile(r.latenciesMs, 99))} | ${codes} |`;
}

async function ocrLevels(nodes: Server[], key: string, image: string, title: string): Promise<string> {
  const body = JSON.stringify({ requests: [{ image: { content: image }, features: [{ type: 'TEXT_DETECTION' }] }] });
  let turn = 0;
  const send = async () => {
    const node = nodes[turn++ % nodes.length];
    const res = await fetch(`${node.url}/v1/images:annotate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-goog-api-key': key },
      body,
    });
    await res.arrayBuffer();
    return res.status;
  };
  await closedLoop(send, 2 * nodes.length, 4000); // warm-up: every worker loads its models
  // Peak resident memory per node process (worker threads included), for sizing.
  let peakRssMb = 0;
  const sampler = setInterval(() => {
    for (const node of nodes) {
      const status = fs.readFileSync(`/proc/${node.child.pid}/status`, 'utf8');
      peakRssMb = Math.max(peakRssMb, Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
    }
  }, 250);
  const rows: string[] = [];
  try {
    for (const c of [1, 2, 4, 8]) rows.push(ocrRow(await closedLoop(send, c, OCR_SECONDS * 1000)));
  } finally {
    clearInterval(sampler);
  }
  return [
    title,
    '',
    '| clients | images/s | p50 ms | p95 ms | p99 ms | statuses |',
    '|---|---|---|---|---|---|',
    ...rows,
    '',
    `Peak RSS per node: ${fmt(peakRssMb)} MB.`,
  ].join('\n');
}

async function main(): Promise<void> {
  const store = await createStore();
  const { base64, name } = await photo();
  const common = { ...store.env, LOG_LEVEL: 'warn', SECRET_PEPPER: PEPPER };
  const out: string[] = [
    `Machine: ${(await import('node:os')).cpus().length} cores (${(await import('node:os')).cpus()[0]?.model ?? '?'}), Node ${process.version}, store: ${PG_URL ? 'PostgreSQL' : 'SQLite'}${REDIS_URL && PG_URL ? ' + Redis' : ''}. Image: ${name}.`,
    '',
  ];
  try {
    out.push(await authPath(store), '');
    if (ONLY === 'auth') return;
    const single = await spawnServer(SERVER_ENTRY, { ...common, OCR_WORKERS: '2' });
    const key = await projectKey(single.url, store.token, store.accountId, false);
    try {
      out.push(await ocrLevels([single], key, base64, `(b) OCR, one node (OCR_WORKERS=2), TEXT_DETECTION, ${OCR_SECONDS} s per level`), '');
    } finally {
      await single.stop();
    }
    if (PG_URL) {
      const pair = await Promise.all([1, 2].map(() => spawnServer(SERVER_ENTRY, { ...common, OCR_WORKERS: '1' })));
      try {
        out.push(
          await ocrLevels(
            pair,
            key,
            base64,
            `(c) OCR, two nodes (OCR_WORKERS=1 each) on one PostgreSQL + Redis, requests alternating, ${OCR_SECONDS} s per level`,
          ),
        );
      } finally {
        await Promise.all(pair.map((n) => n.stop()));
      }
    } else {
      out.push('(c) skipped: set DATABASE_URL=postgres://… and REDIS_URL=redis://… for two nodes.');
    }
  } finally {
    await store.drop();
    console.log(out.join('\n'));
  }
}

await main();
