import { describe, expect, it } from 'vitest';
import { acquireJobLock, JobLockLostError } from '../../src/sql/jobLock.js';
import { writeEvents } from '../../src/store/writeEvents.js';
import { event, market, ok } from '../helpers/domainFixtures.js';
import { useTestDatabase } from '../helpers/testDatabase.js';

const db = await useTestDatabase();
const page = (id: string) => ({ runId: null, endpoint: '/events', events: [ok(event(id, [market(`${id}-M`)]))], observedAt: new Date() });

describe('job lock fencing', () => {
  it('one holder at a time; a holder whose lock connection died commits nothing more', async () => {
    const lock = (await acquireJobLock(db.url, 'crawl', { wait: false }))!;
    expect(lock).not.toBeNull();
    expect(await acquireJobLock(db.url, 'crawl', { wait: false })).toBeNull();

    await writeEvents(db.sql, { ...page('E1'), fence: lock.fence });
    // The lock's connection dies (network cut, server restart, an operator's kill).
    const [holder] = await db.sql`select pid from pg_locks where locktype = 'advisory' and classid = 734011256 and granted
      and database = (select oid from pg_database where datname = current_database())`;
    await db.sql`select pg_terminate_backend(${holder!.pid})`;
    await expect.poll(async () => (await db.sql`select 1 from pg_stat_activity where pid = ${holder!.pid}`).length).toBe(0);
    await expect(writeEvents(db.sql, { ...page('E2'), fence: lock.fence })).rejects.toBeInstanceOf(JobLockLostError);
    const events = await db.sql`select event_id from prediction.events order by event_id`;
    expect(events.map((e) => e.event_id)).toEqual(['E1']);

    await lock.release();
    // Another instance can take it over now.
    const next = await acquireJobLock(db.url, 'crawl', { wait: false });
    expect(next).not.toBeNull();
    await next!.release();
  });
});
