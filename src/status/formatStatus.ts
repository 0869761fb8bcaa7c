import { describeChange } from '../domain/describeChange.js';
import { ALL_CATEGORIES } from '../domain/types.js';
import { sanitizeText } from '../errors/sanitizeText.js';
import { humanBytes, humanCount, humanDuration } from './humanUnits.js';
import type { JobStatus, RunSummary, StatusReport } from './StatusReport.js';

// The text `status` prints: sections in the order a person on call reads them (verdict, jobs,
// freshness, what arrived, size, budget). Names that come from upstream (providers, categories,
// endpoints, rejection reasons), stored errors, and every other string read from the database (job
// and table names, statuses) go through sanitizeText: one line each, no terminal escapes.

const clean = (text: string, maxChars = 200) => sanitizeText(text, maxChars);
/** An instant as ISO text; one no clock reads (Postgres's infinity) says so instead of throwing. */
const iso = (at: Date) => (Number.isFinite(at.getTime()) ? at.toISOString().replace(/\.\d{3}Z$/, 'Z') : 'not a finite time');

/** Rows of cells as left-aligned columns (numbers right-aligned), indented by two spaces. */
function table(rows: readonly (readonly string[])[], rightAligned: readonly number[] = []): string[] {
  if (rows.length === 0) return [];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) =>
    `  ${r.map((cell, i) => (rightAligned.includes(i) ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!))).join('  ')}`.trimEnd(),
  );
}

/** A run's duration: tenths of a second below 10 s (most runs of a busy service), else as humanDuration. */
const runDuration = (ms: number) =>
  !Number.isFinite(ms) ? 'an unknown time' : ms < 10_000 ? `${(Math.max(0, ms) / 1000).toFixed(1)}s` : humanDuration(ms / 1000);

function runLine(run: RunSummary, at: Date): string {
  const took =
    run.durationMs === null ? `running for ${runDuration(at.getTime() - run.startedAt.getTime())}` : `took ${runDuration(run.durationMs)}`;
  const counts =
    run.status === 'running'
      ? ''
      : `, ${humanCount(run.requests)} requests, ${humanCount(run.rowsWritten)} rows, records seen ${humanCount(run.recordsSeen)}` +
        ` (written ${humanCount(run.recordsWritten)}, rejected ${humanCount(run.recordsRejected)})`;
  return `run ${run.runId} ${clean(run.status, 20)}, started ${iso(run.startedAt)}, ${took}${counts}`;
}

function jobLines(job: JobStatus, at: Date): string[] {
  const since = Object.entries(job.runsSince)
    .map(([status, n]) => `${n} ${clean(status, 20)}`)
    .join(', ');
  const head = `  ${clean(job.job, 40).padEnd(10)}  `;
  if (job.lastRun === null) return [`${head}never ran`];
  const lines = [`${head}${runLine(job.lastRun, at)}`];
  const finished = job.lastFinishedRun;
  if (finished !== null && finished.runId !== job.lastRun.runId)
    lines.push(`${' '.repeat(head.length)}before it: ${runLine(finished, at)}`);
  const error = finished?.status === 'failed' || finished?.status === 'degraded' ? finished.error : null;
  if (error !== null) lines.push(`${' '.repeat(head.length)}${finished!.status === 'failed' ? 'error' : 'why'}: ${clean(error, 300)}`);
  if (since !== '') lines.push(`${' '.repeat(head.length)}runs since --since: ${since}`);
  return lines;
}

/** The report as text for a terminal, ending with a newline. */
export function formatStatus(r: StatusReport): string {
  const out: string[] = [];
  const at = r.generatedAt;
  out.push(`prediction-ingest status at ${iso(at)}: ${r.verdict.toUpperCase()}`);
  for (const p of r.problems) out.push(`  - ${clean(p.message, 400)}`);

  out.push('', 'Jobs (latest run)');
  for (const job of r.jobs) out.push(...jobLines(job, at));

  const s = r.settings;
  out.push(
    '',
    `Freshness by provider × category (* = crawled by this configuration, allowed ${humanDuration(s.listingMaxAgeSec)} since its last complete crawl)`,
  );
  if (r.freshness.listings.some((l) => l.expected && l.category === ALL_CATEGORIES)) {
    out.push(`  (the unfiltered listing "${ALL_CATEGORIES}" holds no events of its own: they count under their categories)`);
  }
  if (r.freshness.listings.length === 0) out.push('  nothing listed yet');
  else {
    out.push(
      ...table(
        [
          ['', 'provider', 'category', 'events', 'markets', 'open', 'last complete crawl', 'age', 'crawls since (complete)'],
          ...r.freshness.listings.map((l) => [
            l.expected ? '*' : '',
            clean(l.provider, 40),
            l.category === null ? '(none)' : clean(l.category, 40),
            humanCount(l.events),
            humanCount(l.markets),
            humanCount(l.openMarkets),
            l.lastCompleteCrawlFinishedAt === null ? 'never' : iso(l.lastCompleteCrawlFinishedAt),
            l.ageSec === null ? '-' : humanDuration(l.ageSec),
            `${l.crawlsSince} (${l.completeCrawlsSince})`,
          ]),
        ],
        [3, 4, 5],
      ),
    );
  }
  const b = r.freshness.orderBooks;
  out.push(
    b.openMarkets === 0
      ? 'Order books: no open market'
      : `Order books of the ${humanCount(b.openMarkets)} open markets (${humanCount(b.withoutBook)} without a book yet, aged from their first sighting): ` +
          `age p50 ${humanDuration(b.p50AgeSec!)}, p90 ${humanDuration(b.p90AgeSec!)}, max ${humanDuration(b.maxAgeSec!)} (allowed ${humanDuration(s.bookMaxAgeSec)})`,
  );
  const f = r.freshness.bookFetches;
  if (f.changedShare !== null) {
    const decile =
      f.activeDecileP50AgeSec === null
        ? ''
        : `; the most active tenth of the open markets (${humanCount(f.activeDecileMarkets)}) last fetched p50 ${humanDuration(f.activeDecileP50AgeSec)} ago, max ${humanDuration(f.activeDecileMaxAgeSec!)}`;
    out.push(`  ${(100 * f.changedShare).toFixed(1)} % of ${humanCount(f.comparedFetches)} book fetches found a change${decile}`);
  }

  if (r.completeness.length > 0) {
    out.push('', "Completeness: the service's own event count beside the latest complete crawl (! = the crawl listed fewer)");
    out.push(
      ...table(
        [
          ['', 'provider', 'category', 'service', 'crawled'],
          ...r.completeness.map((c) => [
            (c.crawledEvents ?? 0) < (c.serviceEvents ?? 0) ? '!' : '',
            clean(c.provider, 40),
            clean(c.category, 40),
            c.serviceEvents === null ? '-' : humanCount(c.serviceEvents),
            c.crawledEvents === null ? '-' : humanCount(c.crawledEvents),
          ]),
        ],
        [3, 4],
      ),
    );
  }

  const ago = humanDuration((at.getTime() - s.sinceAt.getTime()) / 1000);
  const i = r.intake;
  out.push('', `Since ${iso(s.sinceAt)} (${ago} ago)`);
  out.push(
    `  records: ${humanCount(i.totals.accepted)} accepted, ${humanCount(i.totals.acceptedWithDrift)} accepted with drift, ${humanCount(i.totals.rejected)} rejected`,
  );
  if (i.byEndpoint.length > 0) {
    out.push(
      ...table(
        [
          ['  endpoint', 'accepted', 'with drift', 'rejected'],
          ...i.byEndpoint.map((e) => [
            `  ${clean(e.endpoint, 80)}`,
            humanCount(e.accepted),
            humanCount(e.acceptedWithDrift),
            humanCount(e.rejected),
          ]),
        ],
        [1, 2, 3],
      ),
    );
  }
  const changes = i.upstreamChanges;
  out.push(`  changes from what the service sends today: ${changes.count === 0 ? 'none' : changes.count}`);
  for (const c of changes.changes) {
    out.push(
      `    ${clean(c.endpoint, 80)}: ${clean(describeChange(c), 300)}, ${humanCount(c.recordsSeen)} records, first ${iso(c.firstSeenAt)}, last ${iso(c.lastSeenAt)}${c.isCurrent ? '' : ' (no longer sent)'}`,
    );
  }
  if (changes.count > changes.changes.length)
    out.push(`    … and ${changes.count - changes.changes.length} more (analytics.upstream_drift)`);
  const q = i.quarantine;
  out.push(`  quarantined: ${humanCount(q.records)} distinct records received (${humanCount(q.newRecords)} for the first time)`);
  for (const g of q.groups) out.push(`    ${humanCount(g.records)} × ${clean(g.endpoint, 80)}: ${clean(g.reason, 200)}`);
  if (q.groupCount > q.groups.length) out.push(`    … and ${q.groupCount - q.groups.length} more reasons (prediction.rejected_records)`);

  out.push('', `Database: the prediction schema takes ${humanBytes(r.database.totalBytes)}`);
  out.push(
    ...table(
      r.database.tables.map((t) => [
        t.partitionOf === null
          ? clean(t.table, 80)
          : `  ${clean(t.table, 80)} (partition of ${clean(t.partitionOf, 80)}${t.packed ? ', packed' : ''})`,
        humanBytes(t.bytes),
        t.rowsEstimate === null ? 'rows unknown' : `~${humanCount(t.rowsEstimate)} rows`,
      ]),
      [1, 2],
    ),
  );

  const retention = r.database.retention;
  out.push(
    retention.months === null
      ? 'Retention: off, every month is kept (PREDICTION_RETENTION_MONTHS unset)'
      : `Retention: the current month and the ${retention.months} before it are kept`,
  );
  for (const h of retention.horizons) {
    out.push(
      `  ${clean(h.tableName, 80)}: absent before ${iso(h.horizon)} (${h.partitionsDropped} months, ${humanCount(h.rowsDropped)} rows dropped, last at ${iso(h.lastDroppedAt)})`,
    );
  }

  const tr = r.trades;
  out.push(
    '',
    tr.polls === 0
      ? `Trades since ${iso(tr.sinceAt)}: the feed was not polled`
      : `Trades since ${iso(tr.sinceAt)}: ${humanCount(tr.trades)} (${tr.tradesPerHour.toFixed(1)}/h) in ${tr.polls} polls, ` +
          (tr.gaps === 0
            ? 'no gap'
            : `${tr.gaps} gap(s) where trades may be missing (last before the poll at ${iso(tr.lastGapAt!)}; see analytics.trade_coverage)`),
  );

  const rate = r.requestRate;
  const running = rate.runningRuns === 0 ? '' : `; ${rate.runningRuns} run(s) still running, whose requests count once they finish`;
  // A service younger than the window: its rate is averaged over the time it ran.
  const younger =
    rate.windowSec < r.settings.rateWindowSec ? ` (since the first run within the last ${humanDuration(r.settings.rateWindowSec)})` : '';
  out.push(
    '',
    `Request rate over the last ${humanDuration(rate.windowSec)}${younger} (runs' requests, spread evenly over each run): ` +
      `${rate.requestsPerMin.toFixed(1)}/min of the plan's ${rate.limitRpm}/min (${rate.usedPercent.toFixed(0)} %)${running}`,
  );
  out.push(`  ${serverWindowLine(rate.server, rate.limitRpm)}`);
  return `${out.join('\n')}\n`;
}

/** The gateway's window (x-ratelimit-*) beside the configured plan, and which of the two paces the client. */
function serverWindowLine(server: StatusReport['requestRate']['server'], planRpm: number): string {
  if (!server) return "Server's window: not reported yet (no run has seen the gateway's x-ratelimit-* headers)";
  const window =
    server.windowSeconds === null ? `${server.requests} requests per window` : `${server.requests} requests per ${server.windowSeconds} s`;
  const rpm = server.requestsPerMinute;
  const verdict =
    rpm === null
      ? ''
      : rpm < planRpm
        ? `, about ${rpm.toFixed(0)}/min: below the plan's ${planRpm}/min, so the server's window paces the client (PREDICTION_RATE_LIMIT_RPM is set above what it grants)`
        : `, about ${rpm.toFixed(0)}/min: the plan's ${planRpm}/min is the tighter`;
  return `Server's window (as of ${server.observedAt.toISOString()}): ${window}${verdict}`;
}
