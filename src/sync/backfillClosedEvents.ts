import { withStatementDeadline } from '../db/withStatementDeadline.js';
import { writeTransaction } from '../db/writeTransaction.js';
import type { Event } from '../domain/types.js';
import { selectClosedFeedBackfill } from '../sql/targets/selectClosedFeedBackfill.js';
import { saveClosedFeedBackfill } from '../sql/writes/saveClosedFeedBackfill.js';
import { isAbortOf } from './isAbortOf.js';
import { CLOSED_FEED_PAGE_SIZE, writeClosedFeedPage } from './readClosedFeed.js';
import type { SyncContext } from './SyncContext.js';

/**
 * How far after `since` the earliest end answered may lie before the backfill says the service
 * answered less than asked: the feed lists events by update, so nothing need have ended exactly at
 * `since`, but a day without a single end in a feed of 5-minute markets is a horizon, not a lull.
 */
export const BACKFILL_SHORT_SEC = 86_400;

/** What a backfill of one provider found. */
export interface BackfillOutcome {
  provider: string;
  /** Events written by this run (a resumed backfill counts from where it resumed). */
  events: number;
  /** Events of the whole backfill so far, and the service's own total on its last page. */
  eventsSeen: number;
  total: number;
  /** Where this run resumed (0 for a fresh backfill). */
  resumedAt: number;
  /** Paged to its end (false when stopped). */
  finished: boolean;
  /** It had been finished by an earlier run: nothing was read again. */
  alreadyDone: boolean;
  /** The earliest close or settlement among every market answered; null when none had ended. */
  oldestEndedAt: Date | null;
  /** Set when the service answered less far back than `since`: what it did answer, in words. */
  shortBy: string | null;
}

export interface BackfillOptions {
  since: Date;
  /** Each page written: the provider, events read so far and the service's total. */
  onPage?: (progress: { provider: string; eventsSeen: number; total: number }) => void;
}

/**
 * Reads GET /events/closed?since= for every provider as far back as the service answers, written
 * like the feed the crawl reads (events, markets, results, settlement times). Resumable: each page
 * commits with where the next begins (prediction.closed_feed_backfills), and a rerun with the same
 * `since` carries on from there; a finished one is not read again. A page read twice (a crash
 * between its write and its progress) writes nothing twice.
 */
export async function backfillClosedEvents(ctx: SyncContext, options: BackfillOptions): Promise<BackfillOutcome[]> {
  const sinceSec = Math.max(1, Math.floor(options.since.getTime() / 1000));
  const since = new Date(sinceSec * 1000);
  const outcomes: BackfillOutcome[] = [];
  for (const provider of ctx.providers) {
    if (ctx.signal?.aborted) break;
    const state = await withStatementDeadline(ctx.sql, 'reading the backfill state', () =>
      selectClosedFeedBackfill(ctx.sql, provider, since),
    );
    const outcome: BackfillOutcome = {
      provider,
      events: 0,
      eventsSeen: state?.eventsSeen ?? 0,
      total: state?.total ?? 0,
      resumedAt: state?.nextStart ?? 0,
      finished: (state?.finishedAt ?? null) !== null,
      alreadyDone: (state?.finishedAt ?? null) !== null,
      oldestEndedAt: state?.oldestEndedAt ?? null,
      shortBy: null,
    };
    outcomes.push(outcome);
    try {
      if (!outcome.alreadyDone) await backfillOne(ctx, provider, since, outcome, options);
    } catch (error) {
      // Stopped: what was committed stays, and the next run resumes after it.
      if (isAbortOf(error, ctx.signal)) break;
      throw error;
    }
    outcome.shortBy = shortBy(outcome, since);
  }
  return outcomes;
}

async function backfillOne(
  ctx: SyncContext,
  provider: string,
  since: Date,
  outcome: BackfillOutcome,
  options: BackfillOptions,
): Promise<void> {
  const pages = ctx.client.iterateClosedEvents(
    { provider, since: Math.floor(since.getTime() / 1000) },
    { start: outcome.resumedAt, pageSize: CLOSED_FEED_PAGE_SIZE },
  );
  for await (const page of pages) {
    await writeClosedFeedPage(ctx, page.items);
    outcome.events += page.items.length;
    outcome.eventsSeen += page.items.length;
    outcome.total = page.pagination.total;
    const ended = earliestEnd(page.items.flatMap((c) => (c.ok ? [c.value] : [])));
    if (ended !== null && (outcome.oldestEndedAt === null || ended < outcome.oldestEndedAt)) outcome.oldestEndedAt = ended;
    outcome.finished = !page.pagination.hasNext;
    await writeTransaction(ctx.sql, ctx.fence, (tx) =>
      saveClosedFeedBackfill(tx, {
        provider,
        since,
        nextStart: page.pagination.end,
        total: outcome.total,
        eventsSeen: outcome.eventsSeen,
        oldestEndedAt: outcome.oldestEndedAt,
        finished: outcome.finished,
        now: ctx.now(),
      }),
    );
    options.onPage?.({ provider, eventsSeen: outcome.eventsSeen, total: outcome.total });
    if (ctx.signal?.aborted) return;
  }
}

/** The earliest close or settlement of any closed market of these events. */
function earliestEnd(events: readonly Event[]): Date | null {
  let earliest: number | null = null;
  for (const e of events) {
    for (const m of e.markets ?? []) {
      if (m.status !== 'closed') continue;
      const at = m.settlementTimeSec ?? m.closeTimeSec;
      if (at !== null && (earliest === null || at < earliest)) earliest = at;
    }
  }
  return earliest === null ? null : new Date(earliest * 1000);
}

/** Why the answer falls short of `since`, or null when it reaches back to it (or nothing was read). */
function shortBy(outcome: BackfillOutcome, since: Date): string | null {
  if (!outcome.finished) return null;
  if (outcome.eventsSeen === 0) return `GET /events/closed answered no event that ended since ${since.toISOString()}`;
  const oldest = outcome.oldestEndedAt;
  if (oldest === null || oldest.getTime() - since.getTime() <= BACKFILL_SHORT_SEC * 1000) return null;
  return `GET /events/closed answered events back to ${oldest.toISOString()} only, not to ${since.toISOString()} as asked: the service keeps no older ones`;
}
