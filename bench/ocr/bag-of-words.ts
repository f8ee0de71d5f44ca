/** Matches of two word multisets, to be summed over a set (micro-averaged precision/recall). */
export interface MatchCount {
  matched: number;
  predicted: number;
  expected: number;
}

export function bagOfWordsCount(predicted: readonly string[], expected: readonly string[]): MatchCount {
  const left = new Map<string, number>();
  for (const w of expected) left.set(w, (left.get(w) ?? 0) + 1);
  let matched = 0;
  for (const w of predicted) {
    const n = left.get(w) ?? 0;
    if (n > 0) {
      matched++;
      left.set(w, n - 1);
    }
  }
  return { matched, predicted: predicted.length, expected: expected.length };
}

export function sumCounts(counts: readonly MatchCount[]): MatchCount {
  return counts.reduce(
    (s, c) => ({ matched: s.matched + c.matched, predicted: s.predicted + c.predicted, expected: s.expected + c.expected }),
    { matched: 0, predicted: 0, expected: 0 },
  );
}

/** F1 of precision matched/predicted and recall matched/expected; 0 when either is empty. */
export function f1(c: MatchCount): number {
  const p = c.predicted ? c.matched / c.predicted : 0;
  const r = c.expected ? c.matched / c.expected : 0;
  return p + r > 0 ? (2 * p * r) / (p + r) : 0;
}

export function recall(c: MatchCount): number {
  return c.expected ? c.matched / c.expected : 0;
}
