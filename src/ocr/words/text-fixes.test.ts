import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadEnglishLexicon } from './english-lexicon.ts';
import type { LineReading } from '../recognize/recognizer.ts';
import { fixText, TEXT_FIXES, textFixContext } from './text-fixes.ts';

const reading = (text: string): LineReading => ({
  text,
  confidence: 0.9,
  chars: Array.from(text).map((t, i, all) => ({ text: t, x0: i / all.length, x1: (i + 1) / all.length, confidence: 0.9 })),
});

test('the stage runs its fixes in order: rules and digits within words, then the lexicon', async () => {
  const context = { lexicon: await loadEnglishLexicon() };
  assert.deepEqual(
    fixText([reading('p lease pass the pape rc up'), reading('NOTATIONS_WERE MADE'), reading('TOTA1 5800o')], context).map((r) => r.text),
    ['please pass the paper cup', 'NOTATIONS WERE MADE', 'TOTAL 58000'],
  );
  assert.deepEqual(TEXT_FIXES.map((f) => f.name).slice(0, 1), ['word-gaps']);
  assert.equal(new Set(TEXT_FIXES.map((f) => f.name)).size, TEXT_FIXES.length, 'names are unique (ablation keys)');
});

test('a fix left out (ablation) changes nothing else; the lexicon applies only without other languages', async () => {
  const lexicon = await loadEnglishLexicon();
  assert.equal(fixText([reading('marmal ade')], { lexicon }, new Set(['join-split-words']))[0].text, 'marmal ade');
  assert.equal(fixText([reading('TOTA1')], { lexicon }, new Set(['join-split-words']))[0].text, 'TOTAL');
  assert.equal(textFixContext({ languageHints: ['de'] }, lexicon).lexicon, undefined);
  assert.equal(textFixContext({ languageHints: ['en-GB'] }, lexicon).lexicon, lexicon);
  assert.equal(fixText([reading('marmal ade')], textFixContext({ languageHints: ['fr'] }, lexicon))[0].text, 'marmal ade');
  // A line found to be French on an unhinted page keeps its words; an English one beside it is fixed.
  assert.deepEqual(
    fixText(
      [
        { ...reading('ne plongez jam aisle socle'), language: 'fr' },
        { ...reading('marmal ade'), language: 'en' },
      ],
      { lexicon },
    ).map((r) => r.text),
    ['ne plongez jam aisle socle', 'marmalade'],
  );
});

test("the recognizer's working fields do not leave the stage; empty and blank lines pass", () => {
  const out = fixText(
    [
      { ...reading('AB'), centres: [0.2, 0.7], ink: { width: 10, textHeight: 8, bandShare: 1, inkRuns: [], gaps: [] } },
      reading(''),
      reading('   '),
    ],
    {},
  );
  assert.deepEqual(Object.keys(out[0]).sort(), ['chars', 'confidence', 'text']);
  assert.deepEqual(
    out.map((r) => r.text),
    ['AB', '', '   '],
  );
});
