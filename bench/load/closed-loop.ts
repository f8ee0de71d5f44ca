/** The outcome of a fixed-concurrency run: every request's latency and status. */
export interface ClosedLoopResult {
  concurrency: number;
  seconds: number;
  requests: number;
  statuses: Record<string, number>;
  latenciesMs: number[];
}

/**
 * `concurrency` clients, each sending its next request as soon as the previous one is answered,
 * for `durationMs` (closed loop: the way a batch job or a pool of app servers calls OCR). Exact
 * percentiles from every latency, which autocannon does not give for p95.
 */
export async function closedLoop(send: () => Promise<number>, concurrency: number, durationMs: number): Promise<ClosedLoopResult> {
  const latenciesMs: number[] = [];
  const statuses: Record<string, number> = {};
  const start = performance.now();
  const deadline = start + durationMs;
  async function client(): Promise<void> {
    while (performance.now() < deadline) {
      const t0 = performance.now();
      let status: string;
      try {
        status = String(await send());
      } catch (err) {
        status = `error:${(err as Error).message}`;
      }
      latenciesMs.push(performance.now() - t0);
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
  }
  await Promise.all(Array.from({ length: concurrency }, client));
  return { concurrency, seconds: (performance.now() - start) / 1000, requests: latenciesMs.length, statuses, latenciesMs };
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}
