import fs from 'node:fs';
import { polygonIou, coveredFraction } from './ocr/polygon-iou.ts';
import { spottingText } from './ocr/normalize-text.ts';
const man = new Map(fs.readFileSync('/tmp/shared/data/ocr-dev/manifest.jsonl', 'utf8').trim().split('\n').map((l) => JSON.parse(l)).map((x) => [x.id, x]));
const res = JSON.parse(fs.readFileSync(process.argv[2], 'utf8')).results;
const c: Record<string, Record<string, number>> = { tune: {}, check: {} };
const inc = (s: string, k: string) => (c[s][k] = (c[s][k] ?? 0) + 1);
const ex: string[] = [];
for (const r of res) {
  const m = man.get(r.id); if (m.kind !== 'scene') continue;
  const gts = m.lines.filter((l: any) => !l.ignore && spottingText(l.text) !== '');
  const ign = m.lines.filter((l: any) => l.ignore);
  const preds = r.words.filter((w: any) => spottingText(w.text) !== '');
  for (const g of gts) {
    const k = spottingText(g.text);
    const best = preds.map((p: any) => ({ p, iou: polygonIou(p.polygon, g.polygon) })).sort((a: any, b: any) => b.iou - a.iou)[0];
    if (best && best.iou >= 0.5 && spottingText(best.p.text) === k) inc(m.split, 'hit');
    else if (best && best.iou >= 0.5) { inc(m.split, 'wrongText'); ex.push(`${m.split} ${r.id} "${g.text}" -> "${best.p.text}"`); }
    else if (best && best.iou >= 0.1) { inc(m.split, 'partialBox'); ex.push(`${m.split} ${r.id} "${g.text}" ~ "${best.p.text}" iou ${best.iou.toFixed(2)}`); }
    else inc(m.split, 'missed');
  }
  for (const p of preds) {
    const best = Math.max(0, ...gts.map((g: any) => polygonIou(p.polygon, g.polygon)));
    if (best >= 0.1) continue;
    if (ign.some((g: any) => coveredFraction(p.polygon, g.polygon) > 0.5)) continue;
    inc(m.split, 'falsePos'); ex.push(`${m.split} ${r.id} FP "${p.text}"`);
  }
}
console.log(c);
if (process.argv[3]) console.log(ex.filter((e) => e.includes(process.argv[3])).join('\n'));
