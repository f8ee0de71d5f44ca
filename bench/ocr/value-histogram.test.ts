import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ValueHistogram } from './value-histogram.ts';

test('quantiles of a histogram are within a bin of the exact ones, on both signs', () => {
  const values = Float32Array.from({ length: 100_000 }, (_, i) => (i - 30_000) / 1000); // -30 … 70
  const h = new ValueHistogram();
  h.add(values.subarray(0, 50_000));
  h.add(values.subarray(50_000));
  for (const [q, exact] of [
    [0.0001, -29.99],
    [0.25, -5],
    [0.5, 20],
    [0.9999, 69.99],
  ]) {
    const got = h.quantile(q);
    assert.ok(Math.abs(got - exact) <= Math.abs(exact) * 0.02 + 0.01, `q=${q}: ${got} vs ${exact}`);
  }
  assert.ok(h.quantile(0) < -29.9 && h.quantile(1) >= 69.99);
});
