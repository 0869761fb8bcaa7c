/** The value of one sample in Prometheus text format, e.g. `sample(text, 'x_total{a="b"}')`; undefined when absent. */
export function sample(text: string, series: string): number | undefined {
  for (const line of text.split('\n')) {
    if (line.startsWith(`${series} `)) return Number(line.slice(series.length + 1));
  }
  return undefined;
}
