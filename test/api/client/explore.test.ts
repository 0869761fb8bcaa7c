import { Command } from 'commander';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { classifyError } from '../../../src/cli/classifyError.js';
import { registerExplore } from '../../../src/cli/commands/explore.js';
import { parseConfig } from '../../../src/config.js';
import { type RecordingServer, startRecordingServer } from './helpers/recordingServer.js';
import { TEST_KEY } from './helpers/testClient.js';
import { wireEvent, wireMarket, wireOrderBook } from './helpers/wire.js';

/** Runs `explore <args>` in-process, the way src/cli/main.ts runs commands; returns what main.ts would report. */
async function explore(args: string[], env: Record<string, string>) {
  const program = new Command('prediction-ingest').exitOverride();
  registerExplore(program, { getConfig: () => parseConfig(env) });
  let stdout = '';
  const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout += String(chunk);
    return true;
  });
  try {
    await program.parseAsync(args, { from: 'user' });
    return { exitCode: 0, stdout, message: '' };
  } catch (error) {
    const { exitCode, message } = classifyError(error);
    return { exitCode, stdout, message };
  } finally {
    write.mockRestore();
  }
}

describe('explore commands', () => {
  let server: RecordingServer;
  afterEach(async () => {
    await server?.close();
  });

  const env = () => ({ PREDICTION_API_URL: server.baseUrl, PREDICTION_API_KEY: TEST_KEY });

  it('events prints the normalized page as JSON, flags mapped to query parameters', async () => {
    server = await startRecordingServer(() => ({
      json: {
        data: [wireEvent('POLY-1'), { ...wireEvent('POLY-2'), title: 'a\u0000b' }],
        pagination: { start: 0, end: 2, total: 2, hasNext: false },
      },
    }));
    const out = await explore(
      [
        'events',
        '--provider',
        'kalshi',
        '--category',
        'crypto',
        '--start',
        '0',
        '--end',
        '20',
        '--include-markets',
        '--sort-by',
        'beginAt',
        '--sort-direction',
        'asc',
        '--filter',
        'new',
      ],
      env(),
    );
    expect(out.exitCode).toBe(0);
    const printed = JSON.parse(out.stdout);
    expect(printed.events[0].ok).toBe(true);
    expect(printed.events[0].value.eventId).toBe('POLY-1');
    expect(printed.events[1].ok).toBe(false);
    expect(printed.events[1].rejection.entityId).toBe('POLY-2');
    expect(printed.pagination.hasNext).toBe(false);
    expect(Object.fromEntries(server.arrivals[0]!.query)).toEqual({
      provider: 'kalshi',
      category: 'crypto',
      start: '0',
      end: '20',
      includeMarkets: 'true',
      sortBy: 'beginAt',
      sortDirection: 'asc',
      filter: 'new',
    });
  });

  it.each([
    [['event', 'POLY-1', '--include-markets'], '/events/POLY-1?includeMarkets=true', wireEvent('POLY-1')],
    [
      ['markets', 'POLY-1', '--start', '20', '--end', '40'],
      '/events/POLY-1/markets?start=20&end=40',
      { data: [wireMarket('M-1')], pagination: { start: 20, end: 21, total: 21, hasNext: false } },
    ],
    [['market', 'M-1'], '/markets/M-1', wireMarket('M-1')],
    [['orderbook', 'M-1'], '/orderbook/M-1', wireOrderBook()],
    [['search', 'btc', '--limit', '20', '--provider', 'polymarket'], '/events/search?query=btc&provider=polymarket&limit=20', { data: [] }],
    [['suggested', 'PK1', '--provider', 'kalshi'], '/events/suggested/PK1?provider=kalshi', { data: [] }],
  ])('%j', async (args, url, body) => {
    server = await startRecordingServer(() => ({ json: body }));
    const out = await explore(args, env());
    expect(out.message).toBe('');
    expect(out.exitCode).toBe(0);
    expect(() => JSON.parse(out.stdout)).not.toThrow();
    expect(server.arrivals.map((a) => a.url)).toEqual([`/prediction/v1${url}`]);
  });

  it.each([
    [['search', 'x', '--limit', '25'], 'limit must be an integer from 1 to 20, got 25'],
    [['search', 'x'.repeat(201)], 'query must be 1 to 200 characters long'],
    [['events', '--start', '-1'], 'start must be an integer >= 0, got -1'],
    [
      ['events', '--provider', 'Bison Fi'],
      "option '--provider <provider>' argument 'Bison Fi' is invalid. Must be a provider name such as kalshi",
    ],
    [['events', '--sort-by', 'price'], 'sortBy must be one of volume, volume24hr, beginAt'],
    [['markets', 'E-1', '--end', 'ten'], "option '--end <n>' argument 'ten' is invalid. Must be a number."],
    [['market', ''], 'marketId must be a non-empty string'],
  ])('%j is refused with exit code 2 and nothing sent', async (args, rule) => {
    server = await startRecordingServer(() => ({ json: {} }));
    const out = await explore(args, env());
    expect(out.exitCode).toBe(2);
    expect(out.message).toContain(rule);
    expect(out.stdout).toBe('');
    expect(server.arrivals).toHaveLength(0);
  });

  it('a rejected key exits non-zero with a one-line message naming no key', async () => {
    server = await startRecordingServer(() => ({ status: 401, json: { message: 'Unauthorized' } }));
    const out = await explore(['market', 'M-1'], env());
    expect(out.exitCode).toBe(3);
    expect(out.message).not.toContain('\n');
    expect(out.message).toMatch(/rejected the key/);
    expect(out.message).not.toContain(TEST_KEY);
  });

  it('without a key, the real service is refused before any request', async () => {
    const out = await explore(['market', 'M-1'], { PREDICTION_API_URL: 'https://api.example.test/prediction/v1' });
    expect(out.exitCode).toBe(3);
    expect(out.message).toMatch(/PREDICTION_API_KEY/);
  });
});
