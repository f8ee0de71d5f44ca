import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { compileGlob } from './glob-matcher.ts';
import { compileRestrictions } from './key-restrictions.ts';

/** The reference semantics (a regex), only ever run on short inputs. */
function reference(glob: string, input: string): boolean {
  const escaped = glob.replace(/[.+?^${}()|[\]\\/]/g, '\\$&').replace(/\*/g, '.*');
  return new RegExp(`^${escaped}$`, 'is').test(input);
}

test('the glob matcher agrees with the regex semantics on short inputs', () => {
  const alphabet = fc.constantFrom('a', 'b', 'A', '/', '*', '.');
  fc.assert(
    fc.property(
      fc.string({ unit: alphabet, maxLength: 10 }),
      fc.string({ unit: fc.constantFrom('a', 'b', 'B', '/', '.', '*'), maxLength: 14 }),
      (glob, input) => {
        assert.equal(compileGlob(glob)(input), reference(glob, input), `${glob} ~ ${input}`);
      },
    ),
    { numRuns: 3000 },
  );
  for (const [glob, input, expected] of [
    ['/*', '/anything?q=1', true],
    ['/app/*', '/app', false],
    ['/*a*a*a*a*b', '/aaaab', true],
    ['/*a*a*a*a*b', '/aaab', false],
    ['/x*', '/X', true],
  ] as const)
    assert.equal(compileGlob(glob)(input), expected, `${glob} ~ ${input}`);
});

test('matching time is linear: comparisons stay within a small multiple of input + pattern length', () => {
  fc.assert(
    fc.property(
      fc.string({ unit: fc.constantFrom('a', 'b', '*'), minLength: 1, maxLength: 40 }),
      fc.string({ unit: fc.constantFrom('a', 'b'), minLength: 1000, maxLength: 4096 }),
      (glob, input) => {
        const matcher = compileGlob(`/${glob}`);
        matcher(`/${input}`);
        assert.ok(matcher.lastSteps <= 2 * (input.length + glob.length + 2), `${matcher.lastSteps} steps for ${glob}`);
      },
    ),
    { numRuns: 300 },
  );
});

test("the report's pattern and a 4 KB Referer: refused after a linear number of steps", () => {
  const attack = `https://example.com/${'a'.repeat(4000)}`;
  const matcher = compileGlob('/*a*a*a*a*b');
  assert.equal(matcher(new URL(attack).pathname), false);
  assert.ok(matcher.lastSteps < 3 * 4096);
  const restrictions = compileRestrictions({ services: ['ocr'], allowedReferrers: ['example.com/*a*a*a*a*b', '*.example.com/*x*y*z'] });
  assert.equal(restrictions.allowsReferrer(attack), false);
  assert.equal(restrictions.allowsReferrer('https://example.com/xaaaab'), true);
  assert.equal(restrictions.allowsReferrer('https://a.example.com/1x2y3z'), true);
});
