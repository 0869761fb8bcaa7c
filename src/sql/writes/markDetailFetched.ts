import { markets } from '../../schema/index.js';
import type { Queryable } from '../core/queryable.js';
import { sqlNames } from '../core/sqlNames.js';

const { table, col: c } = sqlNames(markets);

/** Notes that these markets' own detail was fetched, so a market lacking metadata isn't asked for again. */
export async function markDetailFetched(sql: Queryable, marketIds: readonly string[], fetchedAt: Date): Promise<void> {
  if (marketIds.length === 0) return;
  await sql`
    update ${sql(table)} set ${sql(c.detailFetchedAt)} = ${fetchedAt}::timestamptz
    where ${sql(c.marketId)} = any(${marketIds as string[]}::text[])
      and (${sql(c.detailFetchedAt)} is null or ${sql(c.detailFetchedAt)} < ${fetchedAt}::timestamptz)`;
}
