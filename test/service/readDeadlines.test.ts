import { afterAll, describe, expect, it } from 'vitest';

import { openPool } from '../../src/db/openPool.js';
import { ROLE_SETTINGS } from '../../src/db/sessionSettings.js';
import { DatabaseDeadlineError } from '../../src/db/withDeadline.js';
import { takeJobLease } from '../../src/lease/takeJobLease.js';
import { pgRunCoordinator } from '../../src/service/pgRunCoordinator.js';
import { useTestDatabase } from '../helpers/testDatabase.js';
import { proxyDatabase, type TcpProxy } from '../ops/tcpProxy.js';

const db = await useTestDatabase();
let proxy: TcpProxy | undefined;
afterAll(async () => proxy?.stop());

describe("a job's reads on a frozen connection", () => {
  it('fail within the pool statement deadline, where the answer watchdog sees nothing (as over TLS)', async () => {
    let url: string;
    ({ proxy, url } = await proxyDatabase(db.url));
    // The watchdog's deadline far away, as if it could not see the connection: only the client's
    // own statement deadline can end the wait.
    const pool = openPool(
      url,
      { ...ROLE_SETTINGS.writer, statementDeadlineMs: 300, answerDeadlineMs: 10 * 60_000 },
      { max: 2, applicationName: 'read deadlines test' },
    );
    try {
      await pool.sql`select 1`;
      proxy.freeze();
      const claim = pgRunCoordinator(pool.sql, 'crawl', 'test instance', () => new Date()).shouldRun(
        'crawl:2026-01-01T00:00:00.000Z',
        60_000,
      );
      await expect(claim).rejects.toBeInstanceOf(DatabaseDeadlineError);
      await expect(takeJobLease(pool.sql, 'crawl', { holder: 'test', ttlMs: 60_000 })).rejects.toBeInstanceOf(DatabaseDeadlineError);
    } finally {
      await proxy.stop();
      await pool.close();
    }
  });
});
