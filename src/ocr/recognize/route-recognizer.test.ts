import { after, before, test, type TestContext } from 'node:test';
import sharp from 'sharp';
import { buildLayout } from '../layout/build-layout.ts';
import { loadModels, type OcrModels } from '../models/models.ts';
import { runOcr, type OcrPipelineDeps } from '../ocr-pipeline.ts';
import type { OcrOptions, OcrResult } from '../ocr-types.ts';
import { createPaddleRecognizer } from './recognize-text.ts';
import { createLanguageRouter, MAX_TESSERACT_PASSES, planRecognition } from './route-recognizer.ts';

test('no hints, or only languages PP-OCR reads: PP-OCR alone', (t: TestContext) => {
  for (const hints of [[], ['en'], ['zh-Hant', 'en-US'], ['xx']]) {
    const plan = planRecognition(hints);
    t.assert.deepEqual(plan.tesseract, [], JSON.stringify(hints));
    t.assert.equal(plan.paddleAlone, true);
  }
});

test('Latin-script hints share one fused pass (with English when hinted); other scripts get a pass each', (t: TestContext) => {
  const vi = planRecognition(['vi']);
  t.assert.deepEqual(
    vi.tesseract.map((p) => [p.traineddata, p.latin]),
    [[['vie'], true]],
  );
  t.assert.equal(vi.paddle, true);
  t.assert.equal(vi.paddleAlone, false);
  const europe = planRecognition(['en', 'de', 'fr', 'de-AT']);
  t.assert.deepEqual(
    europe.tesseract.map((p) => p.traineddata),
    [['deu', 'fra', 'eng']],
  );
  t.assert.equal(europe.tesseract[0].language.code, 'de');
  const arabic = planRecognition(['ar']);
  t.assert.deepEqual(
    arabic.tesseract.map((p) => p.traineddata),
    [['ara']],
  );
  t.assert.equal(arabic.paddle, false);
  const many = planRecognition(['ar', 'he', 'ko', 'ja', 'hi', 'de']);
  t.assert.equal(many.tesseract.length, MAX_TESSERACT_PASSES);
  t.assert.deepEqual(many.tesseract[0].traineddata, ['deu']);
});

let models: OcrModels;
let deps: OcrPipelineDeps;
let router: ReturnType<typeof createLanguageRouter>;

before(async () => {
  models = await loadModels({ threads: 1 });
  router = createLanguageRouter(createPaddleRecognizer(models), { maxLoaded: 2 });
  deps = { models, recognizer: router.recognizer, buildLayout };
});
after(async () => {
  await router.close();
  await models.release();
});

async function page(lines: string[]): Promise<Uint8Array> {
  const text = lines.map((l, i) => `<text x="30" y="${60 + i * 60}" font-family="DejaVu Sans" font-size="30">${l}</text>`).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="900" height="${40 + lines.length * 60}"><rect width="100%" height="100%" fill="#fff"/>${text}</svg>`;
  return new Uint8Array(await sharp(Buffer.from(svg)).png().toBuffer());
}

/** The languages the result's paragraphs report. */
const paragraphLanguages = (result: OcrResult) =>
  result.page.blocks.flatMap((b) => b.paragraphs.flatMap((p) => p.languages.map((l) => l.languageCode)));

const run = (bytes: Uint8Array, languageHints: string[], mode: OcrOptions['mode'] = 'document') =>
  runOcr(bytes, deps, { mode, languageHints });

test('a German hint routes the lines through Tesseract and keeps the umlauts', async (t: TestContext) => {
  const bytes = await page(['Zwölf Boxkämpfer jagen Viktor', 'quer über den großen Deich.']);
  const hinted = (await run(bytes, ['de'])).result;
  t.assert.match(hinted.text, /Zwölf Boxkämpfer jagen Viktor/);
  t.assert.match(hinted.text, /über den großen Deich/);
  t.assert.equal(hinted.locale, 'de');
  const plain = (await run(bytes, [])).result;
  t.assert.doesNotMatch(plain.text, /ö/, 'PP-OCR alone has no umlauts');
});

test('a page in French and German read without a hint gets its accents back, line by line', async (t: TestContext) => {
  const bytes = await page([
    'Branchez le chargeur avant la première',
    'utilisation et attendez que le voyant',
    'devienne vert, puis rangez-le dans un',
    'endroit sec, à l’abri de la lumière.',
    'Schließen Sie das Ladegerät vor dem',
    'ersten Gebrauch an und warten Sie, bis',
    'die Anzeige grün leuchtet, und lagern',
    'Sie es danach an einem trockenen Ort.',
  ]);
  const { result } = await run(bytes, []);
  t.assert.match(result.text, /première/);
  t.assert.match(result.text, /Ladegerät/);
  t.assert.match(result.text, /grün/);
  const languages = paragraphLanguages(result);
  t.assert.ok(languages.includes('fr') && languages.includes('de'), JSON.stringify(languages));
  const english = await page([
    'Plug the charger in before the first use',
    'and wait until the light turns green, then',
    'store it somewhere dry and out of the sun.',
    'Never let the battery run completely flat.',
  ]);
  t.assert.equal((await run(english, [])).result.locale, 'en');
});

test('a page of short lines running from one language into the next, read without a hint or hinted with its languages, gets its accents back', async (t: TestContext) => {
  // No line is long enough to tell on its own: each is read by its likeliest language's model, the others behind it.
  const bytes = await page([
    'Der Zug nach München fährt',
    'um acht Uhr. Le train pour',
    'Genève part à neuf heures.',
    'El tren a Sevilla sale más',
    'tarde. Il treno per Napoli',
    'è già partito. O comboio',
    'para Lisboa não chegou.',
    'Das Café am Bahnhof öffnet',
    'später. La gare est fermée.',
    'Il bar della stazione apre',
    'alle sette. A bilheteira',
    'abre às oito. Merci à tous.',
  ]);
  const { result } = await run(bytes, []);
  // The others' models still mix in a few accents ("ôffnet").
  for (const words of [/München fährt/, /Genève part à/, /sale más/, /già partito/, /não chegou/, /fermée/])
    t.assert.match(result.text, words);
  const languages = paragraphLanguages(result);
  t.assert.ok(languages.includes('de') && languages.includes('fr'), JSON.stringify(languages));
  const hinted = (await run(bytes, ['de', 'fr', 'es', 'it', 'pt'])).result;
  for (const words of [/München fährt/, /Genève part à/, /sale más/, /não chegou/, /fermée/]) t.assert.match(hinted.text, words);
});

test('a page hinted with several Latin languages reads each line in its own language, with its own accents', async (t: TestContext) => {
  const bytes = await page([
    'La biblioteca permanecerá cerrada el',
    'sábado por la mudanza de los archivos.',
    'A biblioteca estará fechada no sábado',
    'e já não abrirá antes de segunda-feira.',
    'Die Bibliothek bleibt am Samstag wegen',
    'des Umzugs der Archive geschlossen.',
  ]);
  const { result } = await run(bytes, ['de', 'es', 'pt']);
  t.assert.match(result.text, /permanecerá/);
  t.assert.match(result.text, /estará/);
  t.assert.match(result.text, /já não abrirá/);
  const languages = paragraphLanguages(result);
  t.assert.ok(
    ['es', 'pt', 'de'].every((code) => languages.includes(code)),
    JSON.stringify(languages),
  );
});

test('an Arabic hint reads right to left: logical order, first word boxed at the right', async (t: TestContext) => {
  const { result } = await run(await page(['السلام عليكم يا أصدقاء']), ['ar']);
  t.assert.match(result.text, /السلام عليكم/);
  t.assert.equal(result.locale, 'ar');
  const words = result.page.blocks.flatMap((b) => b.paragraphs.flatMap((p) => p.words));
  const first = words.find((w) => w.text === 'السلام');
  const second = words.find((w) => w.text === 'عليكم');
  t.assert.ok(first && second, JSON.stringify(words.map((w) => w.text)));
  t.assert.ok(words.indexOf(first) < words.indexOf(second), 'logical order');
  t.assert.ok(Math.min(...first.box.map((p) => p.x)) > Math.max(...second.box.map((p) => p.x)) - 5, 'first word right of the second');
});

test('a page in a script PP-OCR lacks, sent without a hint, is found and read in it; a Latin page is not', async (t: TestContext) => {
  const arabic = await run(await page(['السلام عليكم يا أصدقاء', 'مرحبا بكم في المدينة الجميلة']), []);
  t.assert.match(arabic.result.text, /السلام عليكم/);
  t.assert.match(arabic.result.text, /مرحبا بكم/);
  t.assert.equal(arabic.result.locale, 'ar');
  const hebrew = await run(await page(['שלום לכם חברים יקרים', 'ברוכים הבאים לעיר היפה']), []);
  t.assert.match(hebrew.result.text, /שלום לכם/);
  t.assert.equal(hebrew.result.locale, 'he');
  const english = await run(await page(['Plug the charger in first', 'then press the power button']), []);
  t.assert.match(english.result.text, /Plug the charger in first/);
  t.assert.equal(english.result.locale, 'en');
});

test('a line crop in a script only Tesseract reads is read whole, without detection; two lines still are detected', async (t: TestContext) => {
  const one = await runOcr(await page(['السلام عليكم يا أصدقاء']), deps, { mode: 'document', languageHints: ['ar'] }, true);
  t.assert.match(one.result.text, /السلام عليكم/);
  t.assert.equal(one.timings?.detect, undefined, 'no detection');
  const two = await runOcr(
    await page(['السلام عليكم يا أصدقاء', 'مرحبا بكم في المدينة']),
    deps,
    { mode: 'document', languageHints: ['ar'] },
    true,
  );
  t.assert.match(two.result.text, /السلام عليكم/);
  t.assert.match(two.result.text, /مرحبا بكم/);
  t.assert.ok(two.timings?.detect !== undefined, 'detected');
  // English keeps PP-OCR's detector even on a crop.
  const english = await runOcr(await page(['Plug the charger in first']), deps, { mode: 'document', languageHints: ['en'] }, true);
  t.assert.ok(english.timings?.detect !== undefined);
});
