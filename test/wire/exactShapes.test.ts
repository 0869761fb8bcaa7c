/**
 * One description of the wire: the exact shapes of each version (src/wire specShapes, legacyShapes,
 * liveShapes) fit the facts pinned by the fixtures, and the tolerant reader reads every one of them
 * with nothing unreadable. (readerTakesExactShapes.ts checks the same at compile time, as far as
 * types go.)
 */
import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';
import type { z } from 'zod';

import { World } from '../../src/simulator/index.js';
import { dataEnvelopeSchema, listEnvelopeSchema } from '../../src/wire/envelopes.js';
import { eventSchema } from '../../src/wire/event.js';
import { market202602Schema, market202603Schema } from '../../src/wire/legacyShapes.js';
import { Unreadable } from '../../src/wire/lenient.js';
import { liveEventSchema, liveMarketSchema, liveOrderBookSchema } from '../../src/wire/liveShapes.js';
import { marketSchema } from '../../src/wire/market.js';
import { orderBookSchema } from '../../src/wire/orderBook.js';
import { exactPaginationSchema } from '../../src/wire/pagination.js';
import { specEventSchema, specMarketSchema, specOrderBookSchema } from '../../src/wire/specShapes.js';
import { liveEvent, liveMarket, liveOrderBook, specEvent, specMarket, specOrderBook, specPagination } from './fixtures.js';

const fixture = (name: string): unknown => JSON.parse(readFileSync(new URL(`../fixtures/live/${name}`, import.meta.url), 'utf8'));
const dataOf = (body: unknown) => (body as { data: unknown[] }).data;

/** Paths of the fields the reader found unreadable (lenient fields read as `Unreadable`). */
function unreadable(value: unknown, path = ''): string[] {
  if (value instanceof Unreadable) return [path];
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, item]) => unreadable(item, `${path}.${key}`));
}

/** Reads `record` with `reader` and its embedded markets one by one, as the client does; answers what was unreadable. */
function readAll(reader: z.ZodType, record: unknown): string[] {
  const read = reader.parse(record);
  const markets = (read as { markets?: unknown[] | null } | null)?.markets ?? [];
  return [...unreadable(read), ...markets.flatMap((m, i) => unreadable(marketSchema.parse(m), `.markets[${i}]`))];
}

const EXACT: { name: string; exact: z.ZodType; reader: z.ZodType; records: () => unknown[] }[] = [
  { name: 'spec event', exact: specEventSchema, reader: eventSchema, records: () => [specEvent()] },
  { name: 'spec market', exact: specMarketSchema, reader: marketSchema, records: () => [specMarket()] },
  { name: 'spec order book', exact: specOrderBookSchema, reader: orderBookSchema, records: () => [specOrderBook(), null] },
  {
    name: 'live event',
    exact: liveEventSchema,
    reader: eventSchema,
    records: () => [
      liveEvent(),
      ...['events-page-polymarket.json', 'events-page-without-markets.json', 'search-trump.json', 'suggested.json'].flatMap((name) =>
        dataOf(fixture(name)),
      ),
    ],
  },
  { name: 'live market', exact: liveMarketSchema, reader: marketSchema, records: () => [liveMarket(), fixture('market-detail-live.json')] },
  {
    name: 'live order book',
    exact: liveOrderBookSchema,
    reader: orderBookSchema,
    records: () => [liveOrderBook(), fixture('orderbook-96-levels.json'), fixture('orderbook-doc-2026-02-to-now.json')],
  },
  { name: '2026-02 market', exact: market202602Schema, reader: marketSchema, records: () => [fixture('market-detail-2026-02.json')] },
  { name: '2026-03 market', exact: market202603Schema, reader: marketSchema, records: () => [fixture('market-detail-2026-03.json')] },
];

describe('the exact shapes of each version', () => {
  for (const { name, exact, reader, records } of EXACT) {
    it(`${name}: the fixtures have it exactly, and the reader reads it with nothing unreadable`, () => {
      for (const record of records()) {
        expect(exact.safeParse(record).error).toBeUndefined();
        expect(readAll(reader, record)).toEqual([]);
      }
    });
  }

  it('pagination and envelopes: exactly as the fixtures have them, and read', () => {
    for (const name of ['events-page-polymarket.json', 'search-trump.json']) {
      const body = fixture(name) as { pagination: unknown };
      expect(exactPaginationSchema.parse(body.pagination)).toEqual(body.pagination);
      listEnvelopeSchema.parse(body);
    }
    expect(exactPaginationSchema.parse(specPagination())).toEqual(specPagination());
    dataEnvelopeSchema.parse(fixture('suggested.json'));
  });

  it('the exact shapes are strict: a key they do not list is refused (the reader keeps it in raw)', () => {
    expect(specMarketSchema.safeParse(specMarket({ tradable: true })).success).toBe(false);
    expect(liveEventSchema.safeParse(liveEvent({ tvlDollars: '1.00' })).success).toBe(false);
    expect(readAll(marketSchema, specMarket({ tradable: true }))).toEqual([]);
  });

  it("every record shape the simulator plays is read with nothing unreadable ('mixed' profile, no fault)", () => {
    const world = new World({ seed: 5, markets: 200, shape: 'mixed' });
    for (const e of world.events()) {
      expect(readAll(eventSchema, world.eventBody(e.eventId, { includeMarkets: true })), e.eventId).toEqual([]);
      for (const id of e.marketIds) {
        expect(readAll(marketSchema, world.marketBody(id)), id).toEqual([]);
        const book = world.orderBookBody(id);
        expect(readAll(orderBookSchema, book), id).toEqual([]);
      }
    }
  });
});
