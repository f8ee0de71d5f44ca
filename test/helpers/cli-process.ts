import { spawn } from 'node:child_process';
import path from 'node:path';
import sharp from 'sharp';

const BIN = path.resolve(import.meta.dirname, '../../bin/legible.js');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The real CLI process (`bin/legible.js`), optionally fed on standard input. */
export function runCli(args: string[], stdin?: Buffer | 'inherit'): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { ...process.env, LOG_LEVEL: 'silent' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    if (Buffer.isBuffer(stdin)) child.stdin.end(stdin);
    else child.stdin.end();
    child.stdin.on('error', () => {}); // the CLI may stop reading an oversized input early
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/** `legible ocr …`. */
export const legibleOcr = (args: string[], stdin?: Buffer | 'inherit'): Promise<CliResult> => runCli(['ocr', ...args], stdin);

/** A real rendered line of text (DejaVu through librsvg), so the engine has something to read. */
export async function textImage(file: string, text: string): Promise<void> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="120"><rect width="100%" height="100%" fill="white"/>
    <text x="20" y="78" font-family="DejaVu Sans, sans-serif" font-size="52" fill="black">${text}</text></svg>`;
  await sharp(Buffer.from(svg)).png().toFile(file);
}
