import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { replayClosed, type ReplayServer, startReplayServer } from '../helpers/replayServer.js';
import { type CliResult, runCli } from '../helpers/runCli.js';
import { createTestDatabase, type TestDatabase } from '../helpers/testDatabase.js';

/**
 * The cost of a listing of the service's size, as `sync` pays it: the replay server pads the
 * polymarket listing to 3,618 events (the count on 2026-07-05) and answers `limit` up to 100, and
 * 20 events a page without it, as the service does.
 */
const EVENTS = 3_618;
const CLI_TIMEOUT_MS = 240_000;

let server: ReplayServer;
let db: TestDatabase;
let run: CliResult;

beforeAll(async () => {
  server = await startReplayServer({ listingSize: EVENTS });
  db = await createTestDatabase();
  run = await runCli(
    ['sync', '--max-orderbooks', '0'],
    {
      DATABASE_URL: db.url,
      PREDICTION_API_URL: server.url,
      PREDICTION_PROVIDERS: 'polymarket',
      LOG_LEVEL: 'silent',
    },
    CLI_TIMEOUT_MS,
  );
}, CLI_TIMEOUT_MS + 30_000);

afterAll(async () => {
  await db?.close();
  await server?.close();
});

describe('a 3,618-event listing', () => {
  it('is read in at most 40 requests: pages of 100 asked for by `limit`, each continuing from pagination.end', async () => {
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const listing = server.requests.filter((r) => r.path === '/events');
    expect(listing.length).toBeLessThanOrEqual(40);
    expect(listing).toHaveLength(Math.ceil(EVENTS / 100));
    expect(listing.map((r) => [r.query.start, r.query.limit, r.query.end])).toEqual(
      listing.map((_, i) => [String(i * 100), '100', undefined]),
    );
    const [{ n }] = (await db.sql`select count(*)::int as n from prediction.events`) as unknown as [{ n: number }];
    expect(n).toBe(EVENTS + replayClosed().polymarket!.length);
    expect(await db.sql`select entity_id from prediction.rejected_records`).toEqual([]);
  });

  it('costs ceil(events / 100) listing requests, plus the closed feed’s pages and one count of categories', () => {
    const byPath = new Map<string, number>();
    for (const r of server.requests) byPath.set(r.path, (byPath.get(r.path) ?? 0) + 1);
    expect(Object.fromEntries(byPath)).toEqual({ '/trades': 1, '/events': 37, '/events/closed': 1, '/events/categories': 1 });
  });

  it('explore: `events --limit` asks for a page of that size, and a limit outside 1..100 is refused before sending (exit 2)', async () => {
    const env = { PREDICTION_API_URL: server.url, LOG_LEVEL: 'silent' };
    const before = server.requests.length;
    // A page of 30, not 100: the printed JSON stays within what the test's child process may write.
    const page = await runCli(['events', '--start', '100', '--limit', '30'], env, CLI_TIMEOUT_MS);
    expect(page.stderr).toBe('');
    expect(page.code).toBe(0);
    const body = JSON.parse(page.stdout) as { events: unknown[]; pagination: { start: number; end: number } };
    expect(body.events).toHaveLength(30);
    expect(body.pagination).toMatchObject({ start: 100, end: 130 });
    expect(server.requests.slice(before).map((r) => r.query)).toEqual([{ start: '100', limit: '30' }]);

    const refused = await runCli(['events', '--limit', '101'], env, CLI_TIMEOUT_MS);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('limit must be an integer from 1 to 100');
    expect(server.requests).toHaveLength(before + 1);
  });
});
