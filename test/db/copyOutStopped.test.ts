import type { Readable } from 'node:stream';

import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';

import { stopCopyOut } from '../../src/export/stopCopyOut.js';
import { useTestDatabase } from '../helpers/testDatabase.js';

const db = await useTestDatabase({ migrated: false });
const sql = postgres(db.url, { max: 1, onnotice: () => {} });
afterAll(() => sql.end({ timeout: 1 }));

/** Enough rows that the COPY is still being sent when its reader stops. */
const BIG_COPY = "copy (select g, repeat('x', 200) from generate_series(1, 200000) g) to stdout";
/** A minute of rows, 10 ms each, large enough that the first ones arrive at once. */
const SLOW_COPY = "copy (select g, repeat('x', 1000), pg_sleep(0.01) from generate_series(1, 6000) g) to stdout";

describe('a COPY out whose reader stopped early (an export stopped mid-table)', () => {
  it('leaves its connection usable: what the server still sends is dropped, not left to pause the socket', async () => {
    const stream = await sql.unsafe(BIG_COPY).readable();
    await new Promise((resolve) => stream.once('data', resolve));
    // As writeTable does when the export stops: the reader goes away while rows keep coming.
    stream.destroy();
    // One connection: this waits for the COPY's end to be read.
    expect(await sql`select 1 as one`).toEqual([{ one: 1 }]);
  }, 15_000);

  // Inside a transaction a statement is not queued behind the COPY but refused (COPY_IN_PROGRESS),
  // the ROLLBACK included: the connection went back to the pool inside the transaction. The slow
  // COPY would run for a minute: only a cancel that reaches the server ends it within the test.
  it.each([
    ['before its first row is read', BIG_COPY, false],
    ['while the server is still producing rows', SLOW_COPY, true],
  ])(
    'stopped %s, lets its transaction roll back and its connection serve the next query',
    async (_when, copy, readFirst) => {
      const stopped = new Error('stopped');
      await expect(
        sql.begin(async (tx) => {
          const query = tx.unsafe(copy);
          const stream: Readable = await query.readable();
          if (readFirst) await new Promise((resolve) => stream.once('data', resolve));
          await stopCopyOut(tx, query, stream);
          throw stopped;
        }),
      ).rejects.toBe(stopped);
      expect(await sql`select 1 as one`).toEqual([{ one: 1 }]);
      const [row] = await db.sql<{ open: number }[]>`
        select count(*)::int as open from pg_stat_activity where datname = current_database() and state like 'idle in transaction%'`;
      expect(row?.open).toBe(0);
    },
    15_000,
  );
});
