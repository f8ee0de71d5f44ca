import type { Command } from './command.ts';

const EXIT_DEFAULT = ['0  success', '1  the command failed (the message says why)', '2  bad arguments (unknown option, missing operand)'];
const ENVIRONMENT = [
  'DATA_DIR       the embedded store (SQLite) and local state; default ./data',
  "DATABASE_URL   postgres://… to use PostgreSQL instead (the server's store)",
  'LOG_LEVEL      pino level of the few log lines the engine writes; default info',
  "All settings: the README's configuration table.",
];

function indent(lines: string[], by = 7): string {
  return lines.map((l) => (l ? ' '.repeat(by) + l : '')).join('\n');
}

/** Wraps a paragraph at 80 columns after the indent, so help reads well in a terminal. */
function wrap(text: string, width = 73): string[] {
  const out: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      out.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) out.push(line);
  return out;
}

/** A man-page-like page for one command: NAME, SYNOPSIS, DESCRIPTION, OPTIONS, EXIT STATUS, ENVIRONMENT, EXAMPLES. */
export function helpText(name: string, command: Command): string {
  const sections: string[] = [];
  sections.push(`NAME\n${indent([`legible ${name} - ${command.summary}`])}`);
  sections.push(`SYNOPSIS\n${indent(command.synopsis.map((s) => `legible ${name} ${s}`.trimEnd()))}`);
  sections.push(`DESCRIPTION\n${command.description.map((p) => indent(wrap(p))).join('\n\n')}`);
  const options = [...(command.optionDocs ?? []), { flags: '-h, --help', doc: 'Print this help and exit.' }];
  sections.push(`OPTIONS\n${options.map((o) => `${indent([o.flags])}\n${indent(wrap(o.doc, 69), 11)}`).join('\n\n')}`);
  sections.push(`EXIT STATUS\n${indent(command.exitStatus ?? EXIT_DEFAULT)}`);
  sections.push(`ENVIRONMENT\n${indent(ENVIRONMENT)}`);
  if (command.examples?.length) sections.push(`EXAMPLES\n${indent(command.examples)}`);
  return `${sections.join('\n\n')}\n`;
}

/** `legible --help`: one line per command. */
export function overviewText(commands: Record<string, Command>, version: string): string {
  const width = Math.max(...Object.keys(commands).map((n) => n.length));
  return [
    `legible ${version} - self-hostable, Google-Vision-compatible OCR`,
    '',
    'Usage: legible <command> [options]',
    '',
    'Commands:',
    ...Object.entries(commands).map(([n, c]) => `  ${n.padEnd(width)}  ${c.summary}`),
    '',
    'Options:',
    '  -h, --help     this overview; `legible <command> --help` or `legible help <command>` for one command',
    '  -v, --version  print the version and exit',
    '',
    "Environment: DATA_DIR, DATABASE_URL and the rest of the README's configuration table.",
    '',
  ].join('\n');
}
