/** A one-line progress bar redrawn in place; only for terminals (callers check `isTTY`). */
export function createProgressBar(stream: NodeJS.WriteStream, total: number) {
  const width = 30;
  let last = '';
  return {
    update(done: number, failed: number): void {
      const filled = total ? Math.round((width * done) / total) : width;
      const line = `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${total}${failed ? `, ${failed} failed` : ''}`;
      if (line !== last) stream.write(`\r${line}`);
      last = line;
    },
    clear(): void {
      if (last) stream.write(`\r${' '.repeat(last.length)}\r`);
      last = '';
    },
  };
}
