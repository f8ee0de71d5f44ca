import type { ParseArgsConfig } from 'node:util';
import type { Config } from '../config.ts';

export interface CommandContext {
  config: Config;
  values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  positionals: string[];
}

/** One documented option: `flags` as printed (`-l, --lang LANGS`), `doc` one or more sentences. */
export interface OptionDoc {
  flags: string;
  doc: string;
}

export interface Command {
  summary: string;
  /** SYNOPSIS lines, without the leading `legible <name>`. */
  synopsis: string[];
  /** DESCRIPTION paragraphs. */
  description: string[];
  options?: ParseArgsConfig['options'];
  optionDocs?: OptionDoc[];
  /** EXAMPLES: shell lines, each with a comment. */
  examples?: string[];
  /** EXIT STATUS lines, e.g. `0  every file was read`. */
  exitStatus?: string[];
  /** Commands that never touch the store or the engine need no configuration (`help`). */
  needsConfig?: false;
  /** Resolves to the exit code (0 when omitted). */
  run(ctx: CommandContext): Promise<number | void>;
}

/** A failure the user caused (bad argument, unknown account): printed without a stack. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}
