import { describe, expect, it } from 'vitest';

import { LeaseLostError } from '../../src/lease/LeaseLostError.js';
import { takeJobLease } from '../../src/lease/takeJobLease.js';
import { waitForJobLease } from '../../src/lease/waitForJobLease.js';
import { acquireLease } from '../../src/sql/coordination/acquireLease.js';
import { acquireWriteLock } from '../../src/sql/coordination/acquireWriteLock.js';
import { useTestDatabase } from '../helpers/testDatabase.js';

const db = await useTestDatabase();

const lease = async (name: string) =>
  (
    await db.sql<{ holder: string; token: string; live: boolean; expires_at: Date }[]>`
    select holder, token, expires_at > clock_timestamp() as live, expires_at from prediction.job_leases where name = ${name}`
  )[0];

/** Makes the lease of `name` expire now, as if its holder had stopped renewing it a TTL ago. */
const expire = (name: string) => db.sql`update prediction.job_leases set expires_at = clock_timestamp() where name = ${name}`;

describe('job leases', () => {
  it('one holder at a time; released, it is free at once for the next, with a higher token', async () => {
    const a = await takeJobLease(db.sql, 'one-at-a-time', { holder: 'A', ttlMs: 30_000 });
    expect(a).not.toBeNull();
    expect(await takeJobLease(db.sql, 'one-at-a-time', { holder: 'B', ttlMs: 30_000 })).toBeNull();
    expect(await lease('one-at-a-time')).toMatchObject({ holder: 'A', token: String(a!.token), live: true });
    await a!.release();
    const b = await takeJobLease(db.sql, 'one-at-a-time', { holder: 'B', ttlMs: 30_000 });
    expect(b!.token).toBe(a!.token + 1);
    await b!.release();
  });

  it('is renewed while held, so it outlives its TTL', async () => {
    // Renewed every second: a renewal delayed by a busy machine still lands well within the TTL.
    const a = (await takeJobLease(db.sql, 'renewed', { holder: 'A', ttlMs: 3_000 }))!;
    try {
      const first = (await lease('renewed'))!.expires_at;
      await new Promise((r) => setTimeout(r, 4_500));
      const later = await lease('renewed');
      expect(later!.live).toBe(true);
      expect(later!.expires_at.getTime()).toBeGreaterThan(first.getTime());
      expect(a.lost.aborted).toBe(false);
      expect(await takeJobLease(db.sql, 'renewed', { holder: 'B', ttlMs: 3_000 })).toBeNull();
    } finally {
      await a.release();
    }
  });

  it('a holder whose lease expired and was taken over commits nothing more, and its signal aborts', async () => {
    const a = (await takeJobLease(db.sql, 'taken-over', { holder: 'A', ttlMs: 60_000 }))!;
    const write = (fence: typeof a.fence, id: string) =>
      db.sql.begin(async (tx) => {
        await acquireWriteLock(tx, fence);
        await tx`insert into prediction.upstream_sources values (${id}, now(), now())`;
      });
    await write(a.fence, 'before');

    await expire('taken-over');
    const b = (await takeJobLease(db.sql, 'taken-over', { holder: 'B', ttlMs: 60_000 }))!;
    expect(b.token).toBe(a.token + 1);
    await expect(write(a.fence, 'after')).rejects.toBeInstanceOf(LeaseLostError);
    expect(a.lost.aborted).toBe(true);
    expect(a.lost.reason).toBeInstanceOf(LeaseLostError);
    await write(b.fence, 'by-b');
    const ids = await db.sql`select api_url from prediction.upstream_sources where api_url in ('before', 'after', 'by-b') order by 1`;
    expect(ids.map((r) => r.api_url)).toEqual(['before', 'by-b']);

    // The old holder's release leaves the new holder's lease alone.
    await a.release();
    expect(await lease('taken-over')).toMatchObject({ holder: 'B', live: true });
    await b.release();
  });

  it('the heartbeat notices a takeover by itself and aborts the lost signal', async () => {
    const a = (await takeJobLease(db.sql, 'noticed', { holder: 'A', ttlMs: 900 }))!;
    await db.sql`update prediction.job_leases set token = token + 1, holder = 'B', expires_at = clock_timestamp() + interval '1 hour' where name = 'noticed'`;
    await expect.poll(() => a.lost.aborted, { timeout: 5_000 }).toBe(true);
    expect(String((a.lost.reason as Error).message)).toMatch(/another holder took it over/);
    await a.release();
  });

  it('is lost when no renewal is confirmed within the TTL, even if nobody took it', async () => {
    const a = (await takeJobLease(db.sql, 'unrenewed', { holder: 'A', ttlMs: 900 }))!;
    // The database refuses the renewals (as a database that stopped answering would fail them).
    await db.sql`
      create or replace function prediction.refuse_lease_updates() returns trigger language plpgsql as
      $$ begin raise exception 'renewals refused for the test'; end $$`;
    await db.sql`create trigger refuse before update on prediction.job_leases for each row when (old.name = 'unrenewed')
      execute function prediction.refuse_lease_updates()`;
    try {
      await expect.poll(() => a.lost.aborted, { timeout: 5_000 }).toBe(true);
      const reason = a.lost.reason as Error;
      expect(reason.message).toMatch(/no renewal was confirmed within its TTL/);
      expect((reason.cause as Error).message).toMatch(/renewals refused/);
      await expect(db.sql.begin((tx) => a.fence(tx))).rejects.toBeInstanceOf(LeaseLostError);
    } finally {
      await db.sql`drop trigger refuse on prediction.job_leases`;
      await db.sql`drop function prediction.refuse_lease_updates()`;
      await a.release();
    }
  });

  it("cannot be taken over between a write's check and its commit", async () => {
    const a = (await takeJobLease(db.sql, 'in-flight', { holder: 'A', ttlMs: 60_000 }))!;
    let checked!: () => void;
    const fenceChecked = new Promise<void>((r) => (checked = r));
    let commit!: () => void;
    const mayCommit = new Promise<void>((r) => (commit = r));
    const writing = db.sql.begin(async (tx) => {
      await acquireWriteLock(tx, a.fence);
      checked();
      await mayCommit;
    });
    await fenceChecked;
    // The lease expires while the write is in flight: nobody may take it before that write ends.
    await expire('in-flight');
    expect(await acquireLease(db.sql, 'in-flight', 'B', 60_000)).toBeNull();
    commit();
    await writing;
    const b = await takeJobLease(db.sql, 'in-flight', { holder: 'B', ttlMs: 60_000 });
    expect(b?.token).toBe(a.token + 1);
    await b!.release();
    await a.release();
  });

  it('waiting: polls until the holder releases it, and gives up when aborted', async () => {
    const a = (await takeJobLease(db.sql, 'waited', { holder: 'A', ttlMs: 30_000 }))!;
    let waited = 0;
    const waiting = waitForJobLease(db.sql, 'waited', { holder: 'B', ttlMs: 30_000, pollMs: 50, onWaiting: () => waited++ });
    await expect.poll(() => waited, { timeout: 10_000 }).toBe(1);
    // Said once, not at every attempt: several more attempts (50 ms apart) change nothing.
    await new Promise((r) => setTimeout(r, 300));
    expect(waited).toBe(1);
    await a.release();
    const b = await waiting;
    expect(b?.token).toBe(a.token + 1);

    const stop = new AbortController();
    const giving = waitForJobLease(db.sql, 'waited', { holder: 'C', ttlMs: 30_000, pollMs: 50, signal: stop.signal });
    await new Promise((r) => setTimeout(r, 150));
    stop.abort();
    expect(await giving).toBeNull();
    expect(await lease('waited')).toMatchObject({ holder: 'B', live: true });
    await b!.release();
  });
});
