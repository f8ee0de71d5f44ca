import type { MatchCount } from './bag-of-words.ts';
import { spottingText } from './normalize-text.ts';
import { coveredFraction, polygonIou, type Polygon } from './polygon-iou.ts';

export interface SpotWord {
  text: string;
  polygon: Polygon;
}

export interface SpotTruth extends SpotWord {
  ignore?: boolean;
}

/**
 * End-to-end word spotting (ICDAR 2015 Task 4.4 style): a prediction is a hit when it overlaps a
 * not-yet-matched ground-truth word with IoU ≥ 0.5 and the texts match case-insensitively (ends'
 * punctuation stripped); pairs are matched greedily by IoU. Predictions that match nothing and
 * lie more than half inside a "don't care" region, or are punctuation only, count neither way.
 */
export function wordSpottingCount(predicted: readonly SpotWord[], truth: readonly SpotTruth[]): MatchCount {
  const gt = truth.map((t) => ({ ...t, key: spottingText(t.text) })).map((t) => ({ ...t, ignore: t.ignore || t.key === '' }));
  const cared = gt.filter((t) => !t.ignore);
  const ignored = gt.filter((t) => t.ignore);
  const preds = predicted.map((p) => ({ ...p, key: spottingText(p.text) })).filter((p) => p.key !== '');
  const pairs: Array<{ p: number; g: number; iou: number }> = [];
  preds.forEach((p, pi) =>
    cared.forEach((g, gi) => {
      if (p.key !== g.key) return;
      const iou = polygonIou(p.polygon, g.polygon);
      if (iou >= 0.5) pairs.push({ p: pi, g: gi, iou });
    }),
  );
  pairs.sort((a, b) => b.iou - a.iou);
  const usedP = new Set<number>();
  const usedG = new Set<number>();
  for (const { p, g } of pairs) {
    if (usedP.has(p) || usedG.has(g)) continue;
    usedP.add(p);
    usedG.add(g);
  }
  const dontCare = preds.filter((p, pi) => !usedP.has(pi) && ignored.some((g) => coveredFraction(p.polygon, g.polygon) > 0.5)).length;
  return { matched: usedP.size, predicted: preds.length - dontCare, expected: cared.length };
}
