import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fixConfusables } from './fix-confusables.ts';

function read(text: string) {
  const chars = Array.from(text).map((t, i, all) => ({ text: t, x0: i / all.length, x1: (i + 1) / all.length, confidence: 0.9 }));
  return fixConfusables({ text, confidence: 0.9, chars }).text;
}

test('0 and 1 inside words become O and L, o inside numbers becomes 0', () => {
  assert.equal(read('C0RNER SH0P'), 'CORNER SHOP');
  assert.equal(read('TOTA1 c10sed'), 'TOTAL closed');
  // Two letters and two digits: as likely a code ("KW01") as a word ("BILL"); left alone.
  assert.equal(read('BI11'), 'BI11');
  assert.equal(read('RM 5800o 317oo'), 'RM 58000 31700');
});

test('codes, numbers and plain words are left alone', () => {
  for (const text of ['KW01', 'A1', '31B-4', 'TKT-No.7305219946000002', '12.50', 'Room 101', 'dog', 'pH 7', '皖A5P237']) {
    assert.equal(read(text), text);
  }
});

test('a plate keeps its digits between letters', () => {
  assert.equal(read('赣E1DEGZ'), '赣E1DEGZ');
  assert.equal(read('鲁G·J1YDJ'), '鲁G·J1YDJ');
  // The issuing letter is a letter, and words that are not plates keep the word rule.
  assert.equal(read('京OA1234'), '京OA1234');
  assert.equal(read('TOTA1'), 'TOTAL');
});

test('a form rule read as "_" between words becomes a space; empty fields and lone rules stay', () => {
  assert.equal(read('FOLLOWING NOTATIONS_WERE MADE:'), 'FOLLOWING NOTATIONS WERE MADE:');
  assert.equal(read('Millbrook,___VT 05321'), 'Millbrook, VT 05321');
  assert.equal(read('PHONE NUMBER:_(555)_014-2376'), 'PHONE NUMBER: (555) 014-2376');
  for (const text of ['Name:_____', '____ Date', '_', '___', 'a _ b', '']) assert.equal(read(text), text, text);
});
