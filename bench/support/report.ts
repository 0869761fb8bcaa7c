/** Plain-text tables and number formats for the benchmark output (and bench/README.md). */

export type Cell = string | number | null;

/** Prints a Markdown table, so the output can be pasted into the README as is. */
export function printTable(title: string, header: readonly string[], rows: readonly (readonly Cell[])[]): void {
  const text = rows.map((r) => r.map((c) => (c === null ? '' : String(c))));
  const widths = header.map((h, i) => Math.max(h.length, ...text.map((r) => r[i]?.length ?? 0)));
  const line = (cells: readonly string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(`\n### ${title}\n`);
  console.log(line(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const r of text) console.log(line(r));
}

export const fmtMs = (ms: number): string => (ms >= 100 ? ms.toFixed(0) : ms.toFixed(1));
export const fmtMB = (bytes: number): string => (bytes / 1024 / 1024).toFixed(bytes < 1024 * 1024 ? 3 : 1);
export const fmtRatio = (x: number): string => `${x.toFixed(2)}×`;
export const fmtInt = (n: number): string => Math.round(n).toLocaleString('en-US');
/** Rows per millisecond is thousands of rows per second. */
export const fmtKRowsPerSec = (rows: number, ms: number): string => (rows / ms).toFixed(0);

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export function section(title: string): void {
  console.log(`\n## ${title}`);
}

/** A progress line on stderr, apart from the report on stdout. */
export const log = (message: string): void => void process.stderr.write(`${message}\n`);

/** Runs `fn` and logs how long it took under `label`. */
export async function timed<T>(label: string, fn: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  const result = await fn();
  log(`  ${label}: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return result;
}
