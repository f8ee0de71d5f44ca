/**
 * The words of a recognized line: maximal runs `[start, end)` of entries that are not whitespace.
 * Post-recognition fixes work word by word on a line's characters and keep their positions.
 *
 * @example wordRuns(['K', 'E', ' ', 'P']) // [{ start: 0, end: 2 }, { start: 3, end: 4 }]
 */
export function wordRuns(texts: readonly string[]): Array<{ start: number; end: number }> {
  const runs: Array<{ start: number; end: number }> = [];
  let start = 0;
  for (let i = 0; i <= texts.length; i++) {
    if (i < texts.length && texts[i].trim() !== '') continue;
    if (i > start) runs.push({ start, end: i });
    start = i + 1;
  }
  return runs;
}
