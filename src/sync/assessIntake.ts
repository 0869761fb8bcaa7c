import type { EndpointRecordCounts } from '../sql/core/ingestRuns.js';

export interface IntakeTotals {
  recordsByEndpoint: Readonly<Record<string, EndpointRecordCounts>>;
  rejectionReasons: Readonly<Record<string, number>>;
  /** Listing pages that held records and had every one of them rejected. */
  allRejectedPages: number;
  /** Records the upstream could not send (order books answered 502 after every retry), skipped. */
  unavailable: number;
  /** Listings given up before the end (paging that could not be followed), each with why. */
  cutListings: readonly string[];
  /** Markets stored with a field the tables need (status, result, times) nulled by an unreadable value. */
  emptied: number;
  /** Those fields by name. */
  emptiedFields: Readonly<Record<string, number>>;
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
 * when it rejected, could not fetch, or stored with a needed field emptied (a status, a result or a
 * time sent in a type that cannot be read, stored as null) more than its share of what it asked for, when a whole
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
  // A record whose status arrived as a number is stored with a null status: as lost to the tables as a rejected one.
  const unread = rejected + totals.unavailable + totals.emptied;
  const percent = (100 * unread) / asked;
  if (percent > policy.maxRejectedPercent) {
    const parts = [`rejected ${rejected}`];
    if (totals.unavailable > 0) parts.push(`could not fetch ${totals.unavailable}`);
    if (totals.emptied > 0) {
      const fields = Object.entries(totals.emptiedFields)
        .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
        .map(([field, n]) => `${field} ${n}`)
        .join(', ');
      parts.push(`stored ${totals.emptied} with a needed field unreadable and left empty (${fields})`);
    }
    const what = parts.length === 1 ? parts[0]! : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)!}`;
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
