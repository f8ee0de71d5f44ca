import fs from 'node:fs';
import { test, type TestContext } from 'node:test';
import { ERROR_CATALOGUE } from '../src/errors.ts';

test('every error code is documented in docs/errors.md with its HTTP status', (t: TestContext) => {
  const doc = fs.readFileSync(new URL('../docs/errors.md', import.meta.url), 'utf8');
  for (const [code, { http, status }] of Object.entries(ERROR_CATALOGUE)) {
    t.assert.match(doc, new RegExp(`\\| \`${code}\` \\| ${http} \\| ${status} \\|`), `${code} is not documented`);
  }
});
