import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { MAX_ID_CHARS } from '../../src/api/endpoints/paramRules.js';
import { type RecordingServer, startRecordingServer } from '../api/client/helpers/recordingServer.js';
import { TEST_KEY } from '../api/client/helpers/testClient.js';
import { wireMarket } from '../api/client/helpers/wire.js';
import { runCli } from '../helpers/runCli.js';

/**
 * Ids and free-text values given to the exploration commands are bounded before anything is sent:
 * a 100 KB id once went out as a 100 KB URL. Run as a user would, against a server that records
 * every request it receives.
 */
describe('cli: length bounds on ids', () => {
  let server: RecordingServer;
  const env = () => ({ PREDICTION_API_URL: server.baseUrl, PREDICTION_API_KEY: TEST_KEY });
  beforeAll(async () => {
    server = await startRecordingServer((arrival) => ({ json: wireMarket(decodeURIComponent(arrival.path.split('/').pop()!)) }));
  });
  afterAll(async () => {
    await server?.close();
  });

  it('ids are bounded at 256 characters', () => {
    expect(MAX_ID_CHARS).toBe(256);
  });

  it.each([
    [['event', 'E'.repeat(100_000)], 'GET /events/{eventId}: eventId must be at most 256 characters long (was 100000)'],
    [['markets', 'E'.repeat(257)], 'GET /events/{eventId}/markets: eventId must be at most 256 characters long (was 257)'],
    [['market', 'M'.repeat(257)], 'GET /markets/{marketId}: marketId must be at most 256 characters long (was 257)'],
    [['orderbook', 'M'.repeat(5000)], 'GET /orderbook/{marketId}: marketId must be at most 256 characters long (was 5000)'],
    [['suggested', 'P'.repeat(300)], 'GET /events/suggested/{pubkey}: pubkey must be at most 256 characters long (was 300)'],
    [['events', '--subcategory', 's'.repeat(10_000)], 'GET /events: subcategory must be at most 256 characters long (was 10000)'],
    [['search', 'q'.repeat(100_000)], 'GET /events/search: query must be 1 to 200 characters long (was 100000)'],
  ])('%#: refused with exit 2, naming the parameter and the limit, nothing sent', async (args, rule) => {
    const before = server.arrivals.length;
    const result = await runCli(args, env());
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`prediction-ingest: Invalid request to ${rule}`);
    // The value is quoted only in part.
    expect(result.stderr.length).toBeLessThan(400);
    expect(server.arrivals.length).toBe(before);
  });

  it('an id of exactly 256 characters is sent as given', async () => {
    const id = `KX-${'M'.repeat(253)}`;
    const before = server.arrivals.length;
    const result = await runCli(['market', id], env());
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(server.arrivals.slice(before).map((a) => decodeURIComponent(a.path))).toEqual([`/prediction/v1/markets/${id}`]);
  });
});
