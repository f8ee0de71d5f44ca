import { test, type TestContext } from 'node:test';
import { recognizerPrecisionFor } from './recognizer-precision.ts';

test('auto means int8 on a CPU with VNNI and fp32 without; an explicit setting is kept', (t: TestContext) => {
  t.assert.equal(
    recognizerPrecisionFor('auto', () => true),
    'int8',
  );
  t.assert.equal(
    recognizerPrecisionFor('auto', () => false),
    'fp32',
  );
  t.assert.equal(
    recognizerPrecisionFor('fp32', () => t.assert.fail('an explicit setting reads no CPU flags')),
    'fp32',
  );
  t.assert.equal(
    recognizerPrecisionFor('int8', () => t.assert.fail('an explicit setting reads no CPU flags')),
    'int8',
  );
});
