import { afterEach, describe, expect, it } from 'vitest';
import { ApiPaginationError, type PredictionClient } from '../../../src/api/client/index.js';
import type { Checked } from '../../../src/domain/types.js';
import { startRecordingServer, type RecordingServer } from './helpers/recordingServer.js';
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
    // item (a list reshuffling under a volume sort). One record per page is unreadable (a time that is not a number).
    server = await startRecordingServer((a) => {
      const start = Number(a.query.get('start'));
      const end = Math.min(Number(a.query.get('end')), start + 7, TOTAL);
      const from = start === 0 ? 0 : start - 1;
      const data = ids.slice(from, end).map((id, i) => (i === 1 ? { ...wireEvent(id), beginAt: 'soon' } : wireEvent(id)));
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
    // Each request continues from the previous answer's end, asking for a page of 20.
    expect(server.arrivals.map((a) => [a.query.get('start'), a.query.get('end')])).toEqual(
      [0, 7, 14, 21, 28, 35, 42, 49].map((s) => [String(s), String(s + 20)]),
    );
    expect(server.arrivals.every((a) => a.query.get('provider') === 'kalshi' && a.query.get('category') === 'crypto')).toBe(true);
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
    server = await startRecordingServer((a) => {
      const start = Number(a.query.get('start'));
      return { json: { data: [], pagination: { start, end: start + 20, total: 0, hasNext: true } } };
    });
    client = testClient(server.baseUrl);
    const run = async () => {
      for await (const _page of client.iterateEvents({}, { maxPages: 3 })) void _page;
    };
    await expect(run()).rejects.toThrow(/after 3 pages/);
    expect(server.arrivals).toHaveLength(3);
  });
});
