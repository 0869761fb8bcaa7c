/**
 * The instant before which retention drops history: the start of the UTC month that holds the
 * instant `months` months before `now`. Every partition ending by then holds only data older than
 * `months` months; the month straddling that age stays whole. Pure.
 */
export function retentionHorizon(now: Date, months: number): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - months, 1));
}
