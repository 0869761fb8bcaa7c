import { afterEach, describe, expect, it } from 'vitest';

import { ApiPaginationError, ApiRequestInvalidError, type PredictionClient } from '../../../src/api/client/index.js';
import { classifyError } from '../../../src/cli/classifyError.js';
import { ExitCode } from '../../../src/cli/exitCodes.js';
import type { Checked } from '../../../src/domain/types.js';
import { type RecordingServer, startRecordingServer } from './helpers/recordingServer.js';
import { testClient } from './helpers/testClient.js';
import { wireEvent, wireMarket } from './helpers/wire.js';

const TOTAL = 53;
const ids = Array.from({ length: TOTAL }, (_, i) => `POLY-${i}`);

function idOf(c: Checked<{ eventId: string | null } | { marketId: string }>): string | null {
  if (!c.ok) return c.rejection.entityId;
  return 'marketId' in c.value ? c.value.marketId : c.value.eventId;
}

describe('page iterator', () => {
  let server: RecordingServer;
  let client: PredictionClient;
  afterEach(async () => {
    await client?.close();
    await server?.close();
  });

  it('collects every item exactly once from a server that caps the page size and repeats items', async () => {
    // Caps pages at 7 items, and starts every page after the first with the previous page's last
    // item (a list reshuffling under a volume sort). One record per page cannot be read soundly (a title holding NUL, which Postgres cannot store).
    server = await startRecordingServer((a) => {
      const start = Number(a.query.get('start'));
      // A listing asks by `limit` (the page size), as the service takes it.
      expect(a.query.get('end')).toBeNull();
      const end = Math.min(start + Number(a.query.get('limit')), start + 7, TOTAL);
      const from = start === 0 ? 0 : start - 1;
      const data = ids.slice(from, end).map((id, i) => (i === 1 ? { ...wireEvent(id), title: 'a\u0000b' } : wireEvent(id)));
      return { json: { data, pagination: { start, end, total: TOTAL, hasNext: end < TOTAL } } };
    });
    client = testClient(server.baseUrl);
    const seen: string[] = [];
    let rejected = 0;
    const pageIndexes: number[] = [];
    for await (const page of client.iterateEvents({ provider: 'kalshi', category: 'crypto' })) {
      pageIndexes.push(page.pageIndex);
      for (const item of page.items) {
        seen.push(idOf(item)!);
        if (!item.ok) rejected += 1;
      }
    }
    expect(seen).toEqual(ids);
    expect(rejected).toBeGreaterThan(0);
    expect(pageIndexes).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    // Each request continues from the previous answer's end, asking for a page of 100 (the default `limit`).
    expect(server.arrivals.map((a) => [a.query.get('start'), a.query.get('limit')])).toEqual(
      [0, 7, 14, 21, 28, 35, 42, 49].map((s) => [String(s), '100']),
    );
    expect(server.arrivals.map((a) => [a.query.get('provider'), a.query.get('category')])).toEqual(
      server.arrivals.map(() => ['kalshi', 'crypto']),
    );
  });

  it('a page returning fewer items than asked is not the end while hasNext is true', async () => {
    server = await startRecordingServer((a) => {
      const start = Number(a.query.get('start'));
      const end = Math.min(start + 3, 10);
      const data = Array.from({ length: end - start }, (_, i) => wireMarket(`M-${start + i}`));
      return { json: { data, pagination: { start, end, total: 10, hasNext: end < 10 } } };
    });
    client = testClient(server.baseUrl);
    const seen: string[] = [];
    for await (const page of client.iterateEventMarkets('POLY-1', { pageSize: 5, start: 0 })) {
      seen.push(...page.items.map((m) => idOf(m)!));
    }
    expect(seen).toEqual(Array.from({ length: 10 }, (_, i) => `M-${i}`));
    expect(server.arrivals.map((a) => a.query.get('end'))).toEqual(['5', '8', '11', '14']);
  });

  it('stops with ApiPaginationError when a page does not advance', async () => {
    server = await startRecordingServer((a) => {
      const start = Number(a.query.get('start'));
      // Second page claims hasNext but its end does not move past its start.
      const end = start === 0 ? 20 : start;
      return { json: { data: [wireEvent(`POLY-${start}`)], pagination: { start, end, total: 100, hasNext: true } } };
    });
    client = testClient(server.baseUrl);
    const pages: number[] = [];
    const run = async () => {
      for await (const page of client.iterateEvents()) pages.push(page.pageIndex);
    };
    await expect(run()).rejects.toBeInstanceOf(ApiPaginationError);
    expect(pages).toEqual([0, 1]);
    expect(server.arrivals).toHaveLength(2);
  });

  it('stops after maxPages when the server never says hasNext: false', async () => {
    // A total large enough that only the hard ceiling applies.
    server = await startRecordingServer((a) => {
      const start = Number(a.query.get('start'));
      return { json: { data: [], pagination: { start, end: start + 20, total: 1_000_000, hasNext: true } } };
    });
    client = testClient(server.baseUrl);
    const run = async () => {
      for await (const _page of client.iterateEvents({}, { maxPages: 3 })) void _page;
    };
    await expect(run()).rejects.toThrow(/after 3 pages/);
    expect(server.arrivals).toHaveLength(3);
  });
});

describe('a listing that would page without end is an upstream fault (exit 5), found before the next request', () => {
  let server: RecordingServer;
  let client: PredictionClient;
  afterEach(async () => {
    await client?.close();
    await server?.close();
  });

  /** Pages every event listing to its end; returns the error it ended with. */
  async function failure(c: PredictionClient): Promise<unknown> {
    try {
      for await (const _page of c.iterateEvents()) void _page;
    } catch (error) {
      return error;
    }
    throw new Error('the listing ended without an error');
  }

  function expectUpstreamFault(error: unknown, message: RegExp): void {
    expect(error).toBeInstanceOf(ApiPaginationError);
    expect((error as Error).message).toMatch(message);
    expect(classifyError(error).exitCode).toBe(ExitCode.upstreamUnavailable);
  }

  it('stops at pagination.total in pages plus 10 % and 2 when every page is new and says hasNext', async () => {
    // Says 50 items, yet keeps listing fresh ones forever.
    server = await startRecordingServer((a) => {
      const start = Number(a.query.get('start'));
      const data = Array.from({ length: 20 }, (_, i) => wireEvent(`POLY-${start + i}`));
      return { json: { data, pagination: { start, end: start + 20, total: 50, hasNext: true } } };
    });
    client = testClient(server.baseUrl);
    expectUpstreamFault(await failure(client), /pagination\.total 50/);
    // ceil(50 / 20) = 3 pages, + 1 (10 %) + 2: the 7th is never asked for; the `end` bound (50 + 5 + 2 × 20 = 95) stops it at the 5th.
    expect(server.arrivals.length).toBeLessThanOrEqual(6);
    expect(server.arrivals.length).toBeGreaterThanOrEqual(3);
  });

  it('counts pages in the size the server serves: a server capping pages at 7 gets ceil(total / 7) pages and the margin', async () => {
    server = await startRecordingServer((a) => {
      const start = Number(a.query.get('start'));
      const data = Array.from({ length: 7 }, (_, i) => wireEvent(`POLY-${start + i}`));
      return { json: { data, pagination: { start, end: start + 7, total: 53, hasNext: true } } };
    });
    client = testClient(server.baseUrl);
    expectUpstreamFault(await failure(client), /more than the 11 that pagination\.total 53 allows in pages of 7/);
    expect(server.arrivals).toHaveLength(11);
  });

  it('stops when a page holds only ids this listing already gave', async () => {
    server = await startRecordingServer((a) => {
      const start = Number(a.query.get('start'));
      const data = Array.from({ length: 20 }, (_, i) => wireEvent(`POLY-${i}`));
      return { json: { data, pagination: { start, end: start + 20, total: 10_000, hasNext: true } } };
    });
    client = testClient(server.baseUrl);
    expectUpstreamFault(await failure(client), /held only items this listing already gave/);
    expect(server.arrivals).toHaveLength(2);
  });

  it.each([
    ['an end of 1e15', 1e15, 10_000, /jumps past the 1 items/],
    ['an end past what could still be sent', Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, /jumps past/],
    // Far past at the default page of 100: beyond the two pages of margin.
    ['an end far past the total', 400, 100, /jumps past|runs past pagination\.total 100/],
  ])('%s is an upstream fault, never a usage error, and is not sent on', async (_label, end, total, message) => {
    server = await startRecordingServer(() => ({
      json: { data: [wireEvent('POLY-1')], pagination: { start: 0, end, total, hasNext: true } },
    }));
    client = testClient(server.baseUrl);
    const error = await failure(client);
    expect(error).not.toBeInstanceOf(ApiRequestInvalidError);
    expectUpstreamFault(error, message);
    expect(server.arrivals).toHaveLength(1);
  });

  it('lets a listing that grows a little while it is paged finish', async () => {
    // 41 items at first, 44 by the end: within the margin.
    server = await startRecordingServer((a) => {
      const start = Number(a.query.get('start'));
      const total = 41 + Math.floor(start / 20);
      const end = Math.min(start + 20, total);
      const data = Array.from({ length: end - start }, (_, i) => wireEvent(`POLY-${start + i}`));
      return { json: { data, pagination: { start, end, total, hasNext: end < total } } };
    });
    client = testClient(server.baseUrl);
    let items = 0;
    for await (const page of client.iterateEvents()) items += page.items.length;
    expect(items).toBe(43);
  });
});
