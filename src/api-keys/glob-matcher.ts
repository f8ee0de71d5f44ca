/**
 * A case-insensitive `*` glob (the path part of a referrer pattern), matched in time linear in the
 * input and the pattern, whatever the stars: a backtracking regex (`.*a.*a.*a.*b`) froze the event
 * loop for seconds on one long `Referer` (issue 16, item 3).
 *
 * `*`-only globs match greedily: the first segment is a prefix, the last a suffix, and each middle
 * segment is taken at its leftmost occurrence after the previous one (a later occurrence never
 * helps). Each search is Knuth–Morris–Pratt and starts where the previous match ended, so the input
 * is scanned once.
 */
export interface GlobMatcher {
  (input: string): boolean;
  /** Character comparisons made by the last call (tests bound it). */
  readonly lastSteps: number;
}

interface Segment {
  text: string;
  /** KMP failure function. */
  fail: Int32Array;
}

function segment(text: string): Segment {
  const fail = new Int32Array(text.length);
  for (let i = 1, k = 0; i < text.length; i++) {
    while (k > 0 && text[i] !== text[k]) k = fail[k - 1];
    if (text[i] === text[k]) k++;
    fail[i] = k;
  }
  return { text, fail };
}

export function compileGlob(glob: string): GlobMatcher {
  const parts = glob.toLowerCase().split('*');
  const first = parts[0];
  const last = parts.length > 1 ? parts[parts.length - 1] : '';
  const middle = parts
    .slice(1, -1)
    .filter((p) => p !== '')
    .map(segment);
  let steps = 0;

  /** End of the leftmost occurrence of `seg` in `input[from, to)`, or -1. */
  function find(input: string, seg: Segment, from: number, to: number): number {
    const { text, fail } = seg;
    for (let i = from, k = 0; i < to; i++) {
      while (k > 0 && input[i] !== text[k]) {
        k = fail[k - 1];
        steps++;
      }
      steps++;
      if (input[i] === text[k]) k++;
      if (k === text.length) return i + 1;
    }
    return -1;
  }

  const match = (raw: string): boolean => {
    steps = 0;
    const input = raw.toLowerCase();
    if (parts.length === 1) {
      steps = input.length;
      return input === first;
    }
    steps = first.length + last.length;
    if (input.length < first.length + last.length || !input.startsWith(first) || !input.endsWith(last)) return false;
    let at = first.length;
    const end = input.length - last.length;
    for (const seg of middle) {
      at = find(input, seg, at, end);
      if (at < 0) return false;
    }
    return true;
  };
  return Object.defineProperty(match, 'lastSteps', { get: () => steps }) as GlobMatcher;
}
