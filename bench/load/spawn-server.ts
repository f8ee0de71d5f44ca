import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');

export interface Server {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The server as `npm start` runs it: `src/` compiled to JavaScript beside each file (`tsconfig.build.json`), no tsx. */
export const SERVER_ENTRY = 'src/main.js';

let compiled = false;

/** Compiles `src/` with `npm run build`, as `npm start` does first; once per process. */
function compileServer(): void {
  if (compiled) return;
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
  compiled = true;
}

/**
 * Starts `entry` from the repository root on a free port: `SERVER_ENTRY` compiled first, as `npm start`
 * does (what is measured is what users run), any `.ts` file through tsx. Resolves once `/healthz` (or
 * any route) answers and, when `readyLog` is given, once a line of its output contains it.
 */
export async function spawnServer(entry: string, env: Record<string, string>, readyLog?: string): Promise<Server> {
  if (entry === SERVER_ENTRY) compileServer();
  const port = await freePort();
  const child = spawn(process.execPath, entry.endsWith('.ts') ? ['--import', 'tsx', entry] : [entry], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', ...env },
    stdio: ['ignore', readyLog ? 'pipe' : 'ignore', 'pipe'],
  });
  const tail: string[] = [];
  let logged = readyLog === undefined;
  child.stderr!.on('data', (chunk: Buffer) => tail.push(...chunk.toString().split('\n').filter(Boolean)));
  child.stdout?.on('data', (chunk: Buffer) => (logged ||= chunk.toString().includes(readyLog!)));
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${entry} exited (${child.exitCode}):\n${tail.slice(-15).join('\n')}`);
    const up =
      logged &&
      (await fetch(`${url}/healthz`).then(
        () => true,
        () => false,
      ));
    if (up) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    child,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
