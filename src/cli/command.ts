import type { ParseArgsConfig } from 'node:util';
import type { Config } from '../config.ts';

export interface CommandContext {
  config: Config;
  values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  positionals: string[];
}

export interface Command {
  summary: string;
  options?: ParseArgsConfig['options'];
  /** Resolves to the exit code (0 when omitted). */
  run(ctx: CommandContext): Promise<number | void>;
}

/** A failure the user caused (bad argument, unknown account): printed without a stack. */
export class CliError extends Error {
  constructor(message: string, readonly exitCode = 1) {
    super(message);
  }
}
