import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { CliError, type Command } from './command.ts';
import { helpText, overviewText } from './help-text.ts';
import { migrateCommand } from './migrate.ts';
import { ocrCommand } from './ocr-command.ts';
import { serveCommand } from './serve.ts';
import { accountsCreateCommand } from './accounts-create.ts';
import { tokensCreateCommand } from './tokens-create.ts';
import { tokensRevokeCommand } from './tokens-revoke.ts';

/** Every command, by name. Each is a thin adapter over the same config, store and pipeline as the server. */
const commands: Record<string, Command> = {
  ocr: ocrCommand,
  serve: serveCommand,
  migrate: migrateCommand,
  'accounts create': accountsCreateCommand,
  'tokens create': tokensCreateCommand,
  'tokens revoke': tokensRevokeCommand,
};

const VERSION: string = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;

/** The command named by the first one or two words (`migrate`, `accounts create`). */
function findCommand(words: string[]): string | undefined {
  return [words.slice(0, 2).join(' '), words[0]].find((n) => n && commands[n]);
}

/** parseArgs' messages quote oddly (`'-- "--x"`); say what is wrong and where help is, like git and gcloud do. */
function parseErrorMessage(err: Error & { code?: string }, name: string): string {
  const unknown = /Unknown option '([^']+)'/.exec(err.message);
  const what = unknown ? `unknown option ${unknown[1]}` : err.message.replace(/\.$/, '').replace(/'/g, '');
  return `${what}\nRun 'legible ${name} --help' for usage.`;
}

async function run(argv: string[]): Promise<number> {
  const first = argv[0];
  if (first === undefined) {
    process.stderr.write(overviewText(commands, VERSION));
    return 2;
  }
  if (first === '-h' || first === '--help') {
    process.stdout.write(overviewText(commands, VERSION));
    return 0;
  }
  if (first === '-v' || first === '--version' || first === 'version') {
    process.stdout.write(`legible ${VERSION}\n`);
    return 0;
  }
  if (first === 'help') {
    const topic = argv.slice(1);
    if (topic.length === 0) {
      process.stdout.write(overviewText(commands, VERSION));
      return 0;
    }
    const name = findCommand(topic);
    if (!name) {
      console.error(`error: no help for "${topic.join(' ')}": not a command\nRun 'legible --help' for the list.`);
      return 2;
    }
    process.stdout.write(helpText(name, commands[name]));
    return 0;
  }

  const words: string[] = [];
  for (const a of argv) {
    if (a.startsWith('-')) break;
    words.push(a);
  }
  const name = findCommand(words);
  if (!name) {
    console.error(`error: unknown command "${words.join(' ') || first}"\nRun 'legible --help' for the list of commands.`);
    return 2;
  }
  const command = commands[name];
  const rest = argv.slice(name.split(' ').length);
  // `--help` wins wherever it stands before `--`, as with gcloud and git: nothing else is checked or run.
  const beforeDashDash = rest.includes('--') ? rest.slice(0, rest.indexOf('--')) : rest;
  if (beforeDashDash.includes('--help') || beforeDashDash.includes('-h')) {
    process.stdout.write(helpText(name, command));
    return 0;
  }
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: rest, options: command.options ?? {}, allowPositionals: true, strict: true });
  } catch (err) {
    console.error(`error: ${parseErrorMessage(err as Error, name)}`);
    return 2;
  }
  try {
    const config = loadConfig(process.env);
    return (await command.run({ config, values: parsed.values, positionals: parsed.positionals })) ?? 0;
  } catch (err) {
    const message = err instanceof CliError ? err.message : `legible ${name}: ${(err as Error).message}`;
    console.error(`error: ${message}`);
    return err instanceof CliError ? err.exitCode : 1;
  }
}

process.exitCode = await run(process.argv.slice(2));
