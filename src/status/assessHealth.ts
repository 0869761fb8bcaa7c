import { HOW_TO_GET_DATA } from '../domain/howToGetData.js';
import type { BookAges } from '../sql/status/selectBookAges.js';
import { humanDuration } from './humanUnits.js';
import type { JobStatus, ListingStatus, Problem, Thresholds, Verdict } from './StatusReport.js';

export interface HealthFacts {
  jobs: readonly JobStatus[];
  listings: readonly ListingStatus[];
  /** The listings the configuration crawls, as provider × category; each must have a complete crawl recent enough. */
  expectedListings: readonly { provider: string; category: string }[];
  orderBooks: BookAges;
  /** A job's latest finished run counts only if it finished at or after this instant. */
  since: Date;
  thresholds: Thresholds;
}

/**
 * The rules `status` exits by (docs/reference.md, "status"):
 * - no run of any job recorded: unhealthy (nothing was ever ingested; the other rules say nothing then);
 * - a job's latest run stamped with a time that is not finite (infinity): unhealthy;
 * - a job whose latest finished run finished since `since` and failed: unhealthy; degraded: degraded.
 *   An aborted run (a stop, a crash) is not a problem in itself: if nothing runs after it, the data
 *   goes stale. An older failure is left to staleness too, so a job no longer run (the service
 *   replaced by `sync`, say) does not stay unhealthy forever;
 * - a listing the configuration crawls whose latest complete crawl ended longer ago than allowed,
 *   or never: unhealthy;
 * - an open market whose book (or, lacking one, the market itself) is older than allowed: unhealthy.
 */
export function assessHealth(facts: HealthFacts): { verdict: Verdict; problems: Problem[] } {
  if (facts.jobs.every((j) => j.lastRun === null)) {
    const message = `no run recorded yet: nothing has been ingested into this database; ${HOW_TO_GET_DATA}`;
    return { verdict: 'unhealthy', problems: [{ kind: 'no_runs', severity: 'unhealthy', message }] };
  }
  const problems: Problem[] = [];
  // A time Postgres holds but no clock reads (infinity, by hand or a broken clock) compares as
  // neither old nor new: it is a problem of its own, not a fresh run.
  for (const { job, lastRun, lastFinishedRun } of facts.jobs) {
    const odd = [lastRun, lastFinishedRun].find(
      (r) => r !== null && [r.startedAt, r.finishedAt].some((t) => t !== null && !Number.isFinite(t.getTime())),
    );
    if (odd) {
      const message = `${job}: run ${odd.runId} has a start or end time that is not a finite instant (infinity?): fix it in prediction.ingest_runs`;
      problems.push({ kind: 'run_time_not_finite', severity: 'unhealthy', message });
    }
  }
  for (const { job, lastFinishedRun: run } of facts.jobs) {
    if (run === null || run.finishedAt === null || run.finishedAt < facts.since) continue;
    const why = run.error === null ? '' : `: ${run.error}`;
    if (run.status === 'failed') {
      problems.push({ kind: 'last_run_failed', severity: 'unhealthy', message: `${job}: latest run ${run.runId} failed${why}` });
    } else if (run.status === 'degraded') {
      problems.push({ kind: 'last_run_degraded', severity: 'degraded', message: `${job}: latest run ${run.runId} is degraded${why}` });
    }
  }
  const allowedListing = humanDuration(facts.thresholds.listingMaxAgeSec);
  for (const { provider, category } of facts.expectedListings) {
    const listing = facts.listings.find((l) => l.provider === provider && l.category === category);
    const name = `${provider}/${category}`;
    if (listing === undefined || listing.ageSec === null) {
      problems.push({ kind: 'stale_listing', severity: 'unhealthy', message: `listing ${name} has never been crawled completely` });
    } else if (listing.ageSec > facts.thresholds.listingMaxAgeSec) {
      const message = `listing ${name}: latest complete crawl ended ${humanDuration(listing.ageSec)} ago (allowed ${allowedListing})`;
      problems.push({ kind: 'stale_listing', severity: 'unhealthy', message });
    }
  }
  const books = facts.orderBooks;
  if (books.maxAgeSec !== null && books.maxAgeSec > facts.thresholds.bookMaxAgeSec) {
    const without = books.withoutBook === 0 ? '' : `; ${books.withoutBook} of them have no book yet`;
    const message =
      `order books: the oldest of the ${books.openMarkets} open markets' books is ${humanDuration(books.maxAgeSec)} old ` +
      `(allowed ${humanDuration(facts.thresholds.bookMaxAgeSec)})${without}`;
    problems.push({ kind: 'stale_order_books', severity: 'unhealthy', message });
  }
  const verdict: Verdict = problems.some((p) => p.severity === 'unhealthy') ? 'unhealthy' : problems.length > 0 ? 'degraded' : 'healthy';
  return { verdict, problems };
}
