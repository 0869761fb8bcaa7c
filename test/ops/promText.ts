/** The value of one sample in Prometheus text format, e.g. `sample(text, 'x_total{a="b"}')`; undefined when absent. */
export function sample(text: string, series: string): number | undefined {
  for (const line of text.split('\n')) {
    if (line.startsWith(`${series} `)) return Number(line.slice(series.length + 1));
  }
  return undefined;
}

/**
 * Every sample of the metric `name`, keyed by its labels (`{a="b"}`, or '' for none): to compare
 * a metric whole, so that a series it should not have fails the comparison too.
 */
export function samplesOf(text: string, name: string): Record<string, number> {
  const found: Record<string, number> = {};
  for (const line of text.split('\n')) {
    const match = /^(\{.*\})? (\S+)$/.exec(line.startsWith(name) ? line.slice(name.length) : '');
    if (match) found[match[1] ?? ''] = Number(match[2]);
  }
  return found;
}
