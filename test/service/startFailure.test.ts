import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';

import { createPredictionClient } from '../../src/api/client/index.js';
import { KNOWN_PROVIDERS } from '../../src/domain/types.js';
import { createLogger } from '../../src/log/createLogger.js';
import { createMetrics } from '../../src/ops/metrics.js';
import { startService } from '../../src/service/startService.js';
import { EVERY_SECOND } from '../helpers/serviceHarness.js';
import { useTestDatabase } from '../helpers/testDatabase.js';

// Not migrated: the service's first read fails.
const db = await useTestDatabase({ migrated: false });
const observer = postgres(db.url, { max: 1, onnotice: () => {} });
afterAll(() => observer.end());

describe('a service that cannot start', () => {
  it('closes every pool it opened, so that the process can exit with the error', async () => {
    const start = startService({
      databaseUrl: db.url,
      // Never called: the service fails before its first tick.
      client: createPredictionClient({ baseUrl: 'http://127.0.0.1:9/prediction/v1', allowKeyless: true }),
      metrics: createMetrics({ processMetrics: false }),
      logger: createLogger({ level: 'silent' }),
      schedules: { crawl: EVERY_SECOND, trades: EVERY_SECOND, details: EVERY_SECOND, orderbooks: EVERY_SECOND },
      providers: KNOWN_PROVIDERS,
      categories: ['all'],
      maxRejectedPercent: 5,
      orderBookMaxAgeSec: 3600,
      ops: { host: '127.0.0.1', port: 0 },
    });
    await expect(start).rejects.toMatchObject({ code: '42P01' });
    // A backend ends a moment after its client leaves (later on a loaded machine): wait for it.
    // A pool left open keeps its backends for good. Autovacuum workers are not clients.
    const others = async () =>
      (
        await observer<{ n: number }[]>`
        select count(*)::int as n from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'`
      )[0]!.n;
    for (let i = 0; i < 100 && (await others()) > 0; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await others()).toBe(0);
  });
});
