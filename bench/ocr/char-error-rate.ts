/** Levenshtein distance on code points (not UTF-16 units), two rows of memory. */
export function editDistance(a: string, b: string): number {
  const s = Array.from(a);
  const t = Array.from(b);
  if (s.length === 0) return t.length;
  if (t.length === 0) return s.length;
  let prev = new Uint32Array(t.length + 1).map((_, j) => j);
  let cur = new Uint32Array(t.length + 1);
  for (let i = 1; i <= s.length; i++) {
    cur[0] = i;
    for (let j = 1; j <= t.length; j++) {
      const sub = prev[j - 1] + (s[i - 1] === t[j - 1] ? 0 : 1);
      cur[j] = Math.min(sub, prev[j] + 1, cur[j - 1] + 1);
    }
    [prev, cur] = [cur, prev];
  }
  return prev[t.length];
}

/** Edits and reference length of one comparison, to be summed over a set (micro-averaged CER). */
export interface CerCount {
  edits: number;
  length: number;
}

export function cerCount(predicted: string, reference: string): CerCount {
  return { edits: editDistance(predicted, reference), length: Array.from(reference).length };
}

/** 1 − Σedits/Σlength, floored at 0 (an output much longer than the reference). */
export function oneMinusCer(counts: readonly CerCount[]): number {
  const edits = counts.reduce((s, c) => s + c.edits, 0);
  const length = counts.reduce((s, c) => s + c.length, 0);
  return length > 0 ? Math.max(0, 1 - edits / length) : 0;
}
