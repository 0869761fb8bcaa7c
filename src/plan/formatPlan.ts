import { humanCount, humanDuration } from '../status/humanUnits.js';
import type { BookInformation } from './bookInformation.js';
import type { BookRefresh } from './bookRefresh.js';
import type { Plan } from './buildPlan.js';

/** The plan for a person: the universe, requests a minute by phase, and what each book gets. */
export function formatPlan(plan: Plan, options: { configuredRpm: number; orderBookMaxAgeSec: number }): string {
  const { universe: u } = plan;
  const lines: string[] = [];
  const configured =
    plan.rpm === options.configuredRpm ? 'PREDICTION_RATE_LIMIT_RPM' : `PREDICTION_RATE_LIMIT_RPM is ${humanCount(options.configuredRpm)}`;
  lines.push(`plan at ${humanCount(plan.rpm)} requests/min (${configured})`);
  lines.push(
    `  the client sends at most ${humanCount(plan.limit.requests)} requests in any ${plan.limit.windowSec} s (the plan's minute and the client's margin): ${plan.budgetPerMinute.toFixed(1)} a minute`,
  );
  lines.push('', `universe at ${u.at.toISOString().slice(0, 16).replace('T', ' ')} UTC`);
  const listed = u.listings.map((l) =>
    l.eventsListed === null
      ? `${l.provider}/${l.category} never crawled to its end (1 page counted)`
      : `${l.provider}/${l.category} ${humanCount(l.eventsListed)} events (${l.pages} ${l.pages === 1 ? 'page' : 'pages'})`,
  );
  lines.push(`  listings  ${listed.join(', ')}, as their latest complete crawls saw them`);
  lines.push(`            and ${u.feedRequests} requests of the closed-events feed and the category counts a crawl`);
  const smaller = u.listings.filter((l) => l.pagesLastCrawl !== null && l.pagesLastCrawl > l.pages);
  for (const l of smaller) {
    lines.push(`            (${l.provider}/${l.category} took ${l.pagesLastCrawl} pages last time: the upstream served smaller pages)`);
  }
  lines.push(
    u.seenSince === null
      ? '  details   none until a crawl completes'
      : `  details   ${humanCount(u.detailEvents)} events and ${humanCount(u.detailMarkets)} markets to refresh (left the listings, lack metadata, or close soon)`,
  );
  lines.push(
    `  books     ${humanCount(u.openMarkets)} open markets, ${humanCount(u.dueBooks)} due now (never fetched, or older than ${options.orderBookMaxAgeSec} s)`,
  );

  lines.push('', 'requests a minute');
  const used = plan.phases.reduce((n, p) => n + p.requestsPerMinute, 0);
  const unusedShare = plan.unusedPerMinute / Math.max(plan.budgetPerMinute, used);
  const shares = tenthsOfPercent([...plan.phases.map((p) => p.share), unusedShare]);
  const rows = plan.phases.map((p, i) => [
    p.phase,
    p.job,
    p.schedule,
    humanDuration(p.everySec),
    p.requestsPerRun.toFixed(p.job === 'orderbooks' ? 1 : 0),
    p.requestsPerMinute.toFixed(1),
    shares[i]!,
  ]);
  rows.push(['unused', '', '', '', '', plan.unusedPerMinute.toFixed(1), shares.at(-1)!]);
  lines.push(...table(['phase', 'job', 'schedule', 'every', 'a run', 'a minute', 'share'], rows).map((l) => `  ${l}`));
  const skipped = plan.phases.find((p) => p.job === 'orderbooks')!.ticksSkipped;

  lines.push('', 'order books', ...bookLines(plan.books, skipped, options.orderBookMaxAgeSec).map((l) => `  ${l}`));
  if (plan.information) lines.push('', 'information per request', ...informationLines(plan.information).map((l) => `  ${l}`));
  return `${lines.join('\n')}\n`;
}

function bookLines(b: BookRefresh, ticksSkipped: number, maxAgeSec: number): string[] {
  if (b.openMarkets === 0) return ['no open market: nothing to sweep'];
  if (b.everySweep) return [`every open market's book each sweep: every ${humanDuration(b.sweepEverySec)}`];
  const lines: string[] = [];
  const skips =
    ticksSkipped > 0
      ? `; ${percent(ticksSkipped)} of the ticks are skipped: a sweep the limit holds back sends its last batch after its deadline, so the next tick finds it running`
      : '';
  lines.push(`a sweep every ${humanDuration(b.sweepEverySec)}, ${b.booksPerSweep.toFixed(1)} books each${skips}`);
  if (b.maxIntervalSec === null) {
    lines.push(
      `each book about every ${humanDuration(b.meanIntervalSec)}, longer than ORDERBOOK_MAX_AGE_SEC (${maxAgeSec} s): every sweep fetches due books only, oldest first`,
    );
  } else {
    lines.push(
      `each book on average every ${humanDuration(b.meanIntervalSec)}; none waits longer than ${humanDuration(b.maxIntervalSec)} (ORDERBOOK_MAX_AGE_SEC in whole sweeps)`,
    );
    lines.push(
      `due books go first; the other ${b.spareBooksPerSweep.toFixed(1)} a sweep go to the highest-volume markets, which can be refreshed up to every sweep`,
    );
  }
  if (b.dueBooks > 0) {
    const sweeps = Number.isFinite(b.sweepsToCatchUp)
      ? `the next ${b.sweepsToCatchUp === 1 ? 'sweep' : `${b.sweepsToCatchUp} sweeps`}`
      : 'sweeps that never come';
    lines.push(`the ${humanCount(b.dueBooks)} books due now take ${sweeps}`);
  }
  return lines;
}

function informationLines(i: BookInformation): string[] {
  if (i.openMarkets === 0) return ['no open market'];
  const evidence =
    i.marketsWithEvidence === 0
      ? 'no market has fetch evidence yet: rates are priors from traded volume'
      : `${humanCount(i.marketsWithEvidence)} of ${humanCount(i.openMarkets)} markets have fetch evidence of their own; the others start from traded volume`;
  return [
    `${i.fetchesPerSec.toFixed(2)} book fetches/s against ${i.changesPerSec.toFixed(2)} estimated book changes/s (${evidence})`,
    `predicted Fv ${i.predictedFv.toFixed(3)} (activity-weighted share of time a stored book is the true one; ${i.roundRobinFv.toFixed(3)} if spread evenly), F ${i.predictedF.toFixed(3)} (${i.roundRobinF.toFixed(3)} if spread evenly), C ${i.predictedC.toFixed(3)} (share of book states stored)`,
    Number.isFinite(i.intervalShape)
      ? `each market's fetch intervals taken as uneven as the fetch evidence shows them (a gamma law of shape ${i.intervalShape.toFixed(2)} around their mean)`
      : "each market's fetches taken as evenly spaced (the fetch evidence shows no unevenness)",
    ...(i.signalLagSec > 0
      ? [
          `the changes a fill or a listed move tells taken as stored ${i.signalLagSec.toFixed(1)} s after it (the signalled fetches' mean lag), the others at the next fetch in turn`,
        ]
      : []),
    ...(i.lowerBoundRates.markets === 0
      ? []
      : [
          `${humanCount(i.lowerBoundRates.markets)} ${i.lowerBoundRates.markets === 1 ? 'book' : 'books'} found a change at every fetch (${(100 * i.lowerBoundRates.changeShare).toFixed(1)} % of the estimated changes): their rates are lower bounds, so Fv and C are predicted high; fetched more often (a larger plan or a shorter sweep period) they are measured`,
        ]),
  ];
}

/**
 * Shares that add up to 1, as percentages to a tenth that add up to 100.0 (largest remainder:
 * each rounded down, the tenths left given to the largest fractions), where rounding each alone
 * could show 100.1.
 */
function tenthsOfPercent(shares: number[]): string[] {
  const exact = shares.map((s) => s * 1000);
  const tenths = exact.map(Math.floor);
  const left = Math.round(exact.reduce((n, e) => n + e, 0)) - tenths.reduce((n, t) => n + t, 0);
  const byRemainder = exact.map((e, i) => ({ i, r: e - Math.floor(e) })).sort((a, b) => b.r - a.r);
  for (const { i } of byRemainder.slice(0, Math.max(0, left))) tenths[i]! += 1;
  return tenths.map((t) => `${(t / 10).toFixed(1)} %`);
}

function percent(share: number): string {
  return `${(100 * share).toFixed(1)} %`;
}

/** Left-aligned text columns, numbers right-aligned. */
function table(header: string[], rows: string[][]): string[] {
  const all = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...all.map((r) => (r[i] ?? '').length)));
  const numeric = (i: number) => rows.every((r) => r[i] === '' || /^[\d.,]+( %)?$/.test(r[i] ?? ''));
  return all.map((r) =>
    r
      .map((cell, i) => (numeric(i) ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd(),
  );
}
