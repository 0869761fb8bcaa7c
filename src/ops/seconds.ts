/** A duration as whole seconds for a probe's detail text: `1200 s`. A negative span (a clock step back) reads as `0 s`. */
export function seconds(ms: number): string {
  return `${Math.round(Math.max(0, ms) / 1000)} s`;
}
