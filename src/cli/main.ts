import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { CliError, type Command } from './command.ts';
import { migrateCommand } from './migrate.ts';
import { ocrCommand } from './ocr-command.ts';
import { serveCommand } from './serve.ts';
import { accountsCreateCommand } from './accounts-create.ts';
import { tokensCreateCommand } from './tokens-create.ts';
import { tokensRevokeCommand } from './tokens-revoke.ts';

/** Every command, by name. Each is a thin adapter over the same config, store and pipeline as the server. */
const commands: Record<string, Command> = {
  serve: serveCommand,
  migrate: migrateCommand,
  'accounts create': accountsCreateCommand,
  'tokens create': tokensCreateCommand,
  'tokens revoke': tokensRevokeCommand,
  ocr: ocrCommand,
};

function usage(): string {
  const lines = Object.entries(commands).map(([name, c]) => `  legible ${name.padEnd(16)} ${c.summary}`);
  return `Usage:\n${lines.join('\n')}\n\nEnvironment: DATA_DIR, DATABASE_URL (see README).`;
}

async function run(argv: string[]): Promise<number> {
  const words: string[] = [];
  for (const a of argv) {
    if (a.startsWith('-')) break;
    words.push(a);
  }
  // Commands may be one word (`migrate`) or two (`accounts create`).
  const name = [words.slice(0, 2).join(' '), words[0]].find((n) => n && commands[n]);
  if (!name) {
    console.error(argv.length && !['-h', '--help', 'help'].includes(argv[0]) ? `Unknown command: ${argv.join(' ')}\n\n${usage()}` : usage());
    return argv.length && !['-h', '--help', 'help'].includes(argv[0]) ? 2 : 0;
  }
  const command = commands[name];
  const rest = argv.slice(name.split(' ').length);
  try {
    const { values, positionals } = parseArgs({ args: rest, options: command.options ?? {}, allowPositionals: true, strict: true });
    const config = loadConfig(process.env);
    return (await command.run({ config, values, positionals })) ?? 0;
  } catch (err) {
    const message = err instanceof CliError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')
      ? (err as Error).message
      : `legible ${name}: ${(err as Error).message}`;
    console.error(`error: ${message}`);
    // Bad flags are bad arguments: exit 2, like a CliError(…, 2).
    return err instanceof CliError ? err.exitCode : (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS') ? 2 : 1;
  }
}

process.exitCode = await run(process.argv.slice(2));
