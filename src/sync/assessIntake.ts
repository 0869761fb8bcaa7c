import type { EndpointRecordCounts } from '../sql/ingestRuns.js';

export interface IntakeTotals {
  recordsByEndpoint: Readonly<Record<string, EndpointRecordCounts>>;
  rejectionReasons: Readonly<Record<string, number>>;
  /** Listing pages that held records and had every one of them rejected. */
  allRejectedPages: number;
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
 * when it rejected more than its share of what it read, when a whole listing page was rejected
 * (one listing the upstream changed under us), or when it expected records and got none. Such a
 * run still stored what it accepted: "degraded" is loud, never silent, and never "succeeded".
 */
export function assessIntake(totals: IntakeTotals, policy: IntakePolicy): string | null {
  let received = 0;
  let rejected = 0;
  for (const c of Object.values(totals.recordsByEndpoint)) {
    received += c.accepted + c.acceptedWithDrift + c.rejected;
    rejected += c.rejected;
  }
  if (received === 0) return policy.expectRecords ? 'the upstream sent no records' : null;
  const percent = (100 * rejected) / received;
  const problems: string[] = [];
  if (percent > policy.maxRejectedPercent) {
    problems.push(`rejected ${rejected} of ${received} records (${percent.toFixed(1)} %, more than ${policy.maxRejectedPercent} %)`);
  }
  if (totals.allRejectedPages > 0) {
    problems.push(`${totals.allRejectedPages} listing ${totals.allRejectedPages === 1 ? 'page was' : 'pages were'} rejected whole`);
  }
  if (problems.length === 0) return null;
  const reasons = Object.entries(totals.rejectionReasons)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, REASONS_NAMED)
    .map(([reason, n]) => `${reason} (${n})`);
  return `${problems.join('; ')}; most common reasons: ${reasons.join(', ')}`;
}
