import type { EndpointRecordCounts } from '../sql/ingestRuns.js';

export interface IntakeTotals {
  recordsByEndpoint: Readonly<Record<string, EndpointRecordCounts>>;
  rejectionReasons: Readonly<Record<string, number>>;
  /** Listing pages that held records and had every one of them rejected. */
  allRejectedPages: number;
  /** Records the upstream could not send (order books answered 502 after every retry), skipped. */
  unavailable: number;
  /** Listings given up before the end (paging that could not be followed), each with why. */
  cutListings: readonly string[];
}

export interface IntakePolicy {
  /** Degraded above this share of rejected records, in percent. */
  maxRejectedPercent: number;
  /** A run that received no record at all is degraded too (a full sync or a crawl always lists something). */
  expectRecords: boolean;
}

/** How many of the most common rejection reasons a degraded run names. */
const REASONS_NAMED = 3;

/**
 * Whether a finished run read its upstream soundly; returns why not, or null. A run is degraded
 * when it rejected, or could not fetch, more than its share of what it asked for, when a whole
 * listing page was rejected (one listing the upstream changed under us), when a listing's paging
 * could not be followed to its end, or when it expected records and got none. Such a
 * run still stored what it accepted: "degraded" is loud, never silent, and never "succeeded".
 */
export function assessIntake(totals: IntakeTotals, policy: IntakePolicy): string | null {
  let received = 0;
  let rejected = 0;
  for (const c of Object.values(totals.recordsByEndpoint)) {
    received += c.accepted + c.acceptedWithDrift + c.rejected;
    rejected += c.rejected;
  }
  const problems: string[] = [];
  const cut = totals.cutListings.length;
  if (cut > 0)
    problems.push(`${cut} ${cut === 1 ? 'listing was' : 'listings were'} given up before the end: ${totals.cutListings.join('; ')}`);
  const asked = received + totals.unavailable;
  if (asked === 0) {
    if (policy.expectRecords) problems.push('the upstream sent no records');
    return problems.length === 0 ? null : problems.join('; ');
  }
  const unread = rejected + totals.unavailable;
  const percent = (100 * unread) / asked;
  if (percent > policy.maxRejectedPercent) {
    const what = totals.unavailable === 0 ? `rejected ${rejected}` : `rejected ${rejected} and could not fetch ${totals.unavailable}`;
    problems.push(`${what} of ${asked} records (${percent.toFixed(1)} %, more than ${policy.maxRejectedPercent} %)`);
  }
  if (totals.allRejectedPages > 0) {
    problems.push(`${totals.allRejectedPages} listing ${totals.allRejectedPages === 1 ? 'page was' : 'pages were'} rejected whole`);
  }
  if (problems.length === 0) return null;
  if (rejected === 0) return problems.join('; ');
  const reasons = Object.entries(totals.rejectionReasons)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, REASONS_NAMED)
    .map(([reason, n]) => `${reason} (${n})`);
  return `${problems.join('; ')}; most common reasons: ${reasons.join(', ')}`;
}
