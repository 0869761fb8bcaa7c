import type { z } from 'zod';

import type { dataEnvelopeSchema, listEnvelopeSchema } from './envelopes.js';
import type { eventSchema } from './event.js';
import type { Market202602, Market202603, OrderBook202603 } from './legacyShapes.js';
import type { LiveEvent, LiveMarket, LiveOrderBook } from './liveShapes.js';
import type { marketSchema } from './market.js';
import type { orderBookSchema } from './orderBook.js';
import type { paginationSchema, PaginationWire } from './pagination.js';
import type { SpecEvent, SpecMarket, SpecOrderBook } from './specShapes.js';

/**
 * `Exact`, if the reader `Reader` takes every value of it; a type error otherwise. Input types
 * check what the reader requires or types (ids, times, prices, pagination); the fields it reads
 * leniently take anything, so test/wire/exactShapes.test.ts reads every exact shape at run time,
 * with nothing unreadable.
 */
type TakenBy<Reader extends z.ZodType, Exact extends z.input<Reader>> = Exact;

/**
 * One description of the wire: each version's exact shapes (specShapes, legacyShapes, liveShapes)
 * are what the tolerant reader takes. A change to either that parts them fails the type check here.
 */
export type ReaderTakesExactShapes = [
  TakenBy<typeof eventSchema, SpecEvent | LiveEvent>,
  TakenBy<typeof marketSchema, SpecMarket | Market202602 | Market202603 | LiveMarket>,
  TakenBy<typeof orderBookSchema, SpecOrderBook | OrderBook202603 | LiveOrderBook | null>,
  TakenBy<typeof paginationSchema, PaginationWire>,
  TakenBy<typeof listEnvelopeSchema, { data: SpecEvent[] | LiveEvent[] | SpecMarket[]; pagination: PaginationWire }>,
  TakenBy<typeof dataEnvelopeSchema, { data: SpecEvent[] | LiveEvent[] }>,
];
