import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Quad } from '../ocr-types.ts';
import { identifyLanguages, SEVERAL, tellLines } from './identify-language.ts';
import { rectQuad } from '../geometry.ts';

/** One line per row, 40 px apart, as a page's detector boxes. */
const rows = (n: number): Quad[] =>
  Array.from({ length: n }, (_, i) => [
    { x: 100, y: 40 * i },
    { x: 900, y: 40 * i },
    { x: 900, y: 40 * i + 30 },
    { x: 100, y: 40 * i + 30 },
  ]);

// PP-OCR's reading of such pages: the words are right, the accents are gone.
const FRENCH = [
  'Mode d emploi',
  'Branchez le chargeur sur une prise murale avant de mettre',
  "l'appareil en marche, puis attendez que le voyant devienne vert.",
  'Ne laissez jamais la batterie se decharger completement pendant',
  "l'hiver et rangez-la dans un endroit sec et tempere.",
];
const GERMAN = [
  'Schliessen Sie das Ladegerat an eine Steckdose an, bevor Sie',
  'das Gerat einschalten, und warten Sie, bis die Anzeige grun leuchtet.',
];
const ENGLISH = [
  'Plug the charger into a wall socket before switching the unit on,',
  'then wait until the light turns green. Never let the battery run',
  'completely flat over the winter, and store it somewhere dry.',
];

test("a French page is French, line by line; a short line takes its neighbour's language", () => {
  assert.deepEqual(identifyLanguages(FRENCH, rows(FRENCH.length)), ['fr', 'fr', 'fr', 'fr', 'fr']);
});

test('a page in several languages is split by paragraph', () => {
  const texts = [...FRENCH, ...ENGLISH, ...GERMAN];
  const languages = identifyLanguages(texts, rows(texts.length));
  assert.deepEqual(languages, [...FRENCH.map(() => 'fr'), ...ENGLISH.map(() => 'en'), ...GERMAN.map(() => 'de')]);
});

test('a page in these languages none of whose lines is long enough to tell is read by all their models', () => {
  const short = [
    'Le train pour Lyon part',
    'à huit heures et demie.',
    'Der Zug nach Bonn fährt',
    'später ab. Bitte warten',
    'Sie auf dem Bahnsteig.',
    'Le café de la gare est',
    'fermé le dimanche matin.',
    'Merci de votre patience',
    'et bon voyage à tous. Les',
    'billets restent valables',
    'pour le train suivant.',
  ];
  assert.deepEqual(
    identifyLanguages(short, rows(short.length)),
    short.map(() => SEVERAL),
  );
});

test('English pages, short texts and other languages are left alone', () => {
  assert.deepEqual(identifyLanguages(ENGLISH, rows(3)), [undefined, undefined, undefined]);
  assert.deepEqual(identifyLanguages(['Sortie', 'Ne pas entrer'], rows(2)), [undefined, undefined]);
  const malay = [
    'Perpustakaan awam dibuka setiap hari dari pukul sembilan pagi.',
    'Kanak-kanak bermain bola di padang selepas waktu persekolahan tamat.',
    'Cuaca cerah minggu ini sesuai untuk berkelah bersama keluarga di pantai.',
  ];
  assert.deepEqual(identifyLanguages(malay, rows(3)), [undefined, undefined, undefined]);
  assert.deepEqual(identifyLanguages([], []), []);
});

test('lines told among given languages: long lines on their own, short ones as their nearest told line, none when none is long', () => {
  const texts = [
    'La biblioteca permanecera cerrada el sabado por la mudanza.',
    'Gracias',
    'A biblioteca estara fechada no sabado e ja nao abrira antes.',
  ];
  assert.deepEqual(tellLines(texts, rows(3), ['spa', 'por', 'deu']), ['spa', 'spa', 'por']);
  assert.deepEqual(tellLines(['Gracias', 'Obrigado'], rows(2), ['spa', 'por']), [undefined, undefined]);
});

test('a heading too short to tell takes the language of the paragraph it sits closest to, not the nearest centre', () => {
  const texts = [
    'Wir entschuldigen uns fur die Unannehmlichkeiten und danken',
    'Ihnen fur Ihr Verstandnis und Ihre Geduld.',
    'Francais',
    'Le musee sera ferme lundi pour des travaux d entretien et de nettoyage.',
  ];
  // The German paragraph's short last line ends above the heading; the French paragraph starts just below it.
  const quads = [rectQuad(100, 0, 1500, 30), rectQuad(100, 40, 700, 70), rectQuad(100, 110, 260, 145), rectQuad(100, 155, 1500, 185)];
  assert.deepEqual(tellLines(texts, quads, ['deu', 'fra']), ['deu', 'deu', 'fra', 'fra']);
});
