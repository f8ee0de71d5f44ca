import { test, type TestContext } from 'node:test';
import { LATENCY_BOUNDS_MS, LATENCY_COLUMNS, addLatency, latencyBucket, latencyPercentiles, latencyQuantile } from './latency-histogram.ts';

test('latency buckets: upper bounds inclusive, one open bucket above the last bound', (t: TestContext) => {
  t.assert.equal(LATENCY_COLUMNS.length, LATENCY_BOUNDS_MS.length + 1);
  t.assert.deepEqual([0, 0.4, 10, 10.01, 15, 69_999, 70_000, 70_001, 1e9].map(latencyBucket), [0, 0, 0, 1, 1, 23, 23, 24, 24]);
  // Log scale: each bound is 1.33 to 1.67 times the previous.
  for (let i = 1; i < LATENCY_BOUNDS_MS.length; i++) {
    const ratio = LATENCY_BOUNDS_MS[i] / LATENCY_BOUNDS_MS[i - 1];
    t.assert.ok(ratio >= 1.33 && ratio <= 1.67, `${LATENCY_BOUNDS_MS[i - 1]} → ${LATENCY_BOUNDS_MS[i]}`);
  }
});

test('latency percentiles: interpolated in the bucket, additive across histograms', (t: TestContext) => {
  const counts = (samples: number[]) =>
    samples.reduce(
      (h, ms) => {
        h[latencyBucket(ms)]++;
        return h;
      },
      LATENCY_COLUMNS.map(() => 0),
    );
  t.assert.equal(latencyPercentiles(counts([])), undefined);
  // 100 samples: 90 at 80 ms (bucket 70–100), 9 at 400 ms (300–500), 1 at 2 s (1500–2000).
  const h = counts([...Array(90).fill(80), ...Array(9).fill(400), 2000]);
  const p = latencyPercentiles(h)!;
  t.assert.equal(p.samples, 100);
  t.assert.equal(p.p50Ms, Math.round(70 + 30 * (50 / 90)));
  t.assert.equal(p.p95Ms, Math.round(300 + 200 * (5 / 9)));
  t.assert.equal(p.p99Ms, 500);
  // Percentiles of a sum are those of the combined samples, unlike any mean of percentiles.
  const day1 = counts(Array(50).fill(20));
  const day2 = counts(Array(50).fill(5000));
  t.assert.deepEqual(addLatency(addLatency([], day1), day2), counts([...Array(50).fill(20), ...Array(50).fill(5000)]));
  t.assert.ok(latencyQuantile(addLatency([...day1], day2), 0.5) <= 20);
  t.assert.ok(latencyQuantile(addLatency([...day1], day2), 0.51) > 3000);
  // Above the last bound reads as the last bound.
  t.assert.equal(latencyPercentiles(counts([500_000]))!.p99Ms, 70_000);
});
