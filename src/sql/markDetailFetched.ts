import type { Queryable } from './queryable.js';

/** Notes that these markets' own detail was fetched, so a market lacking metadata isn't asked for again. */
export async function markDetailFetched(sql: Queryable, marketIds: readonly string[], fetchedAt: Date): Promise<void> {
  if (marketIds.length === 0) return;
  await sql`
    update prediction.markets set detail_fetched_at = ${fetchedAt}::timestamptz
    where market_id = any(${marketIds as string[]}::text[])
      and (detail_fetched_at is null or detail_fetched_at < ${fetchedAt}::timestamptz)`;
}
