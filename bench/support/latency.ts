/** Client-side latency figures of one query, in milliseconds, and the rows it returned on average. */
export interface LatencyStats {
  n: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  rows: number;
}

/**
 * Runs `run(i)` n times, one at a time, after a warm-up of up to `warmUp` runs (plans prepared,
 * pages cached), and returns its latency percentiles.
 */
export async function measureLatency(n: number, run: (i: number) => Promise<{ count: number }>, warmUp = 50): Promise<LatencyStats> {
  for (let i = 0; i < Math.min(warmUp, n); i++) await run(i);
  const ms: number[] = [];
  let rows = 0;
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    rows += (await run(i)).count;
    ms.push(performance.now() - t0);
  }
  ms.sort((a, b) => a - b);
  const at = (q: number) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))]!;
  return { n, p50: at(0.5), p95: at(0.95), p99: at(0.99), max: ms[ms.length - 1]!, rows: rows / n };
}

/** A deterministic pseudo-random sequence in [0, 1), so two runs ask the same questions. */
export function seededRandom(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1_664_525) + 1_013_904_223) >>> 0) / 2 ** 32;
}
