import type { Sql } from '../../src/db/connect.js';
import { acquireWriteLock } from '../../src/sql/coordination/acquireWriteLock.js';

/** Takes the write lock in a transaction of its own and keeps it until `release()`: every page write waits meanwhile. */
export async function holdWriteLock(sql: Sql): Promise<{ release: () => Promise<void> }> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let held!: () => void;
  const isHeld = new Promise<void>((resolve) => (held = resolve));
  const transaction = sql.begin(async (tx) => {
    await acquireWriteLock(tx);
    held();
    await released;
  });
  await Promise.race([isHeld, transaction]);
  return {
    release: async () => {
      release();
      await transaction;
    },
  };
}
