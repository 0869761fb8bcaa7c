/**
 * Migration 0029 adds the changed fetches' summed squares of their intervals to
 * prediction.book_fetches. Rows that exist start with those intervals taken as even (the square of
 * their mean, once a changed fetch): their spread is unknown, and the rate's estimate then takes
 * them at their mean, as before (src/sync/changeRate.ts).
 */
import { expect, it } from 'vitest';

import { migrate } from '../../src/db/migrate.js';
import { migrationsUpTo } from '../helpers/migrationsUpTo.js';
import { createTestDatabase } from '../helpers/testDatabase.js';

it('starts the rows that exist with their changed intervals even', async () => {
  const db = await createTestDatabase({ migrated: false });
  const upTo0028 = await migrationsUpTo(28);
  try {
    await migrate(db.url, { migrationsFolder: upTo0028.folder });
    await db.sql`
      insert into prediction.book_fetches (market_id, last_fetched_at, fetches, changed_fetches, unchanged_fetches, changed_interval_sec, unchanged_interval_sec)
      values ('M1', now(), 5, 3, 1, 90, 10), ('M2', now(), 2, 0, 1, 0, 30), ('M3', now(), 1, 0, 0, 0, 0)`;
    await migrate(db.url);
    const rows = await db.sql<{ market_id: string; changed_interval_sq_sec: number }[]>`
      select market_id, changed_interval_sq_sec from prediction.book_fetches order by market_id`;
    // Three changed fetches of 30 s on average: 3·30².
    expect(rows).toEqual([
      { market_id: 'M1', changed_interval_sq_sec: 2700 },
      { market_id: 'M2', changed_interval_sq_sec: 0 },
      { market_id: 'M3', changed_interval_sq_sec: 0 },
    ]);
  } finally {
    await upTo0028.remove();
    await db.close();
  }
});
