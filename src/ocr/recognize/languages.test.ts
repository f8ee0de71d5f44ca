import { test, type TestContext } from 'node:test';
import fc from 'fast-check';
import { findLanguage, installedLanguages, LANGUAGES, latinLanguageOf } from './languages.ts';
import { locateTraineddata } from './tesseract/traineddata-location.ts';
import { checkLanguageHint, SUPPORTED_LANGUAGES } from '../../vision/supported-languages.ts';

test('the default set is installed from npm: en, zh, ar, vi, ko, ja, hi, de, fr, es, pt, it, he', (t: TestContext) => {
  const installed = installedLanguages().map((l) => l.code);
  for (const code of ['en', 'zh', 'zh-Hans', 'zh-Hant', 'ar', 'vi', 'ko', 'ja', 'hi', 'de', 'fr', 'es', 'pt', 'it', 'he']) {
    t.assert.ok(installed.includes(code), code);
  }
  for (const l of LANGUAGES.filter((l) => l.dataSource === 'npm')) {
    t.assert.match(locateTraineddata(l.traineddata!)?.langPath ?? '', /@tesseract\.js-data/, l.code);
  }
  t.assert.deepEqual(SUPPORTED_LANGUAGES, installed);
});

test('Russian is offered exactly when a system rus.traineddata exists (no npm package ships it)', (t: TestContext) => {
  const ru = LANGUAGES.find((l) => l.code === 'ru')!;
  t.assert.equal(ru.dataSource, 'system');
  t.assert.equal(findLanguage('ru') !== undefined, locateTraineddata('rus') !== undefined);
});

test('hints match on language + script, region aliases, deprecated codes and the language alone', (t: TestContext) => {
  const cases: Array<[string, string | undefined]> = [
    ['en', 'en'],
    ['EN-us', 'en'],
    ['pt-BR', 'pt'],
    ['zh-Hant-TW', 'zh-Hant'],
    ['zh-TW', 'zh-Hant'],
    ['zh-CN', 'zh-Hans'],
    ['zh', 'zh'],
    ['iw', 'he'],
    ['he-IL', 'he'],
    ['ar-EG', 'ar'],
    ['vi', 'vi'],
    ['xx', undefined],
    ['und', undefined],
    ['klingon', undefined],
    ['', undefined],
  ];
  for (const [hint, code] of cases) t.assert.equal(findLanguage(hint)?.code, code, hint);
  t.assert.equal(findLanguage('ar')?.direction, 'rtl');
  t.assert.equal(findLanguage('vi')?.traineddata, 'vie');
});

test('a Latin-script hint names its language, in the catalogue or not', (t: TestContext) => {
  const cases: Array<[string, string | undefined]> = [
    ['de-CH', 'de'],
    ['pt-BR', 'pt'],
    ['en-t-i0-handwrit', 'en'],
    ['nl-BE', 'nl'],
    ['PL', 'pl'],
    ['sr-Latn', 'sr'],
    ['sr', undefined],
    ['ar', undefined],
    ['zh-Hant', undefined],
    ['el', undefined],
    ['xx', undefined],
    ['und', undefined],
    ['en_US', undefined],
    ['a'.repeat(10_000), undefined],
  ];
  for (const [hint, code] of cases) t.assert.equal(latinLanguageOf(hint), code, hint.slice(0, 20));
});

test('unsupported and hostile hints are refused with a message naming them', (t: TestContext) => {
  const refused = checkLanguageHint('tlh');
  t.assert.ok(!refused.ok && refused.message.includes('"tlh"') && refused.message.includes('ar, he'));
  t.assert.equal(checkLanguageHint('ar').ok, true);
  t.assert.equal(checkLanguageHint('iw').ok, true);
  fc.assert(
    fc.property(fc.string({ maxLength: 200 }), (hint) => {
      const found = findLanguage(hint);
      return found === undefined || LANGUAGES.includes(found);
    }),
  );
  t.assert.equal(findLanguage('__proto__'), undefined);
  t.assert.equal(findLanguage('constructor'), undefined);
  t.assert.equal(findLanguage('a'.repeat(100_000)), undefined);
});
