import type { z } from 'zod';

import type { CategoryCount, Checked, Event, Market, OrderBook, Pagination, Rejection, Trade } from '../domain/types.js';
import { normalizeEvent } from '../normalize/event.js';
import { normalizeCategoryCount } from '../normalize/eventCategories.js';
import { normalizeMarket } from '../normalize/market.js';
import { normalizeOrderBook } from '../normalize/orderBook.js';
import { normalizePagination } from '../normalize/pagination.js';
import { normalizeResponseTime } from '../normalize/responseTime.js';
import { normalizeTrade } from '../normalize/trade.js';
import { boundedPayload } from '../wire/boundedPayload.js';
import { checkRecord } from '../wire/checkRecord.js';
import { closedListEnvelopeSchema, dataEnvelopeSchema, listEnvelopeSchema } from '../wire/envelopes.js';
import { eventSchema } from '../wire/event.js';
import { eventCategoriesEnvelopeSchema, eventCategorySchema } from '../wire/eventCategories.js';
import { describeValue, formatIssues, readableErrorMap } from '../wire/issues.js';
import { LIMITS } from '../wire/limits.js';
import type { ContractKind } from '../wire/liveContract.js';
import { marketSchema } from '../wire/market.js';
import { orderBookSchema } from '../wire/orderBook.js';
import { HOSTILE_SHAPE, recordShape } from '../wire/recordShape.js';
import { tradeSchema } from '../wire/trade.js';

/**
 * Entry points for the HTTP client: one call per response. Validation is per record: a bad record
 * becomes a Rejection while its siblings are kept. Only an unusable envelope throws.
 *
 * A detail answer must be the record asked for: GET /markets/A answering market B (or an event,
 * or a book naming another market) is rejected under A, so no caller can write B's row from it.
 * The check sits here, in the client's parse step, because every caller (the sync, explore, a
 * script) gets it without having to remember it, and the request's id is known nowhere better.
 * A rejection's payload is cut to its bounded form at once (boundedPayload).
 */

/** The envelope itself is unusable (not an object, `data` not an array, pagination missing...). */
export class ResponseShapeError extends Error {
  override name = 'ResponseShapeError';
}

export function parseEventList(body: unknown, ctx: { provider: string }): { events: Checked<Event>[]; pagination: Pagination } {
  const envelope = parseEnvelope(listEnvelopeSchema, body, 'event list');
  return {
    events: envelope.data.map((record) => checkEvent(record, ctx.provider)),
    pagination: normalizePagination(envelope.pagination),
  };
}

/**
 * GET /events/closed: a list like GET /events, plus when the service generated it (`timestamp`,
 * null when absent or unreadable).
 */
export function parseClosedEventList(
  body: unknown,
  ctx: { provider: string },
): { events: Checked<Event>[]; pagination: Pagination; generatedAt: Date | null } {
  const envelope = parseEnvelope(closedListEnvelopeSchema, body, 'closed event list');
  return {
    events: envelope.data.map((record) => checkEvent(record, ctx.provider)),
    pagination: normalizePagination(envelope.pagination),
    generatedAt: normalizeResponseTime(envelope.timestamp),
  };
}

/**
 * GET /events/categories: the counts of every readable entry; `unreadable` counts the entries
 * that were not (no category name, a count that is not a non-negative integer).
 */
export function parseEventCategories(body: unknown): { categories: CategoryCount[]; unreadable: number } {
  const envelope = parseEnvelope(eventCategoriesEnvelopeSchema, body, 'event categories');
  const categories: CategoryCount[] = [];
  let unreadable = 0;
  for (const entry of envelope.data) {
    const read = eventCategorySchema.safeParse(entry);
    if (read.success) categories.push(normalizeCategoryCount(read.data));
    else unreadable += 1;
  }
  return { categories, unreadable };
}

/** GET /events/search and GET /events/suggested/{pubkey}: `{ data: Event[] }`. */
export function parseEventArray(body: unknown, ctx: { provider: string | null }): { events: Checked<Event>[] } {
  const envelope = parseEnvelope(dataEnvelopeSchema, body, 'event array');
  return { events: envelope.data.map((record) => checkEvent(record, ctx.provider)) };
}

/**
 * GET /events/{id}: the body is the record, so any failure is a rejection, never a throw.
 * `requestedId`: the id asked for; an answer naming another event is rejected under it.
 */
export function parseEvent(body: unknown, ctx: { provider: string | null; requestedId?: string }): Checked<Event> {
  const checked = checkEvent(body, ctx.provider);
  if (ctx.requestedId === undefined || !checked.ok || checked.value.eventId === ctx.requestedId) return checked;
  return notRequested('eventId', ctx.requestedId, checked.value.eventId, body, checked.value.shape);
}

export function parseMarketList(body: unknown, ctx: { eventId: string }): { markets: Checked<Market>[]; pagination: Pagination } {
  const envelope = parseEnvelope(listEnvelopeSchema, body, 'market list');
  return {
    markets: envelope.data.map((record) => checkMarket(record, ctx.eventId, '')),
    pagination: normalizePagination(envelope.pagination),
  };
}

/**
 * GET /markets/{id}: the body is the record, so any failure is a rejection, never a throw.
 * `requestedId`: the id asked for; an answer naming another market is rejected under it.
 */
export function parseMarket(body: unknown, ctx: { eventId: string | null; requestedId?: string }): Checked<Market> {
  const checked = checkMarket(body, ctx.eventId, '');
  if (ctx.requestedId === undefined || !checked.ok || checked.value.marketId === ctx.requestedId) return checked;
  return notRequested('marketId', ctx.requestedId, checked.value.marketId, body, checked.value.shape);
}

/** The keys of a book's sides, in cents and in dollars. */
const BOOK_SIDES = ['yes', 'no', 'yes_dollars', 'no_dollars'] as const;

/**
 * GET /orderbook/{id}: a null body is a valid answer (isNull, empty sides); an object with no side
 * of the book is not. Never throws. The book carries no id in any known shape; one that names
 * another market is rejected.
 */
export function parseOrderBook(body: unknown, ctx: { marketId: string }): Checked<OrderBook> {
  const checked = checkRecord(orderBookSchema, body);
  if (!checked.ok) return reject(ctx.marketId, 'orderBook', checked, body);
  const shape = recordShape(body, 'orderBook');
  const named = isRecord(body) && Object.hasOwn(body, 'marketId') ? body.marketId : undefined;
  if (named !== undefined && named !== ctx.marketId) return notRequested('marketId', ctx.marketId, named, body, shape);
  // Not one side to read (a renamed shape, an empty object): stored, it would read as a book with no
  // bids and hide the change. A missing side alone is drift (normalizeOrderBook).
  if (checked.data !== null && BOOK_SIDES.every((side) => checked.data?.[side] === undefined)) {
    return reject(
      ctx.marketId,
      'orderBook',
      { reason: `body: none of ${BOOK_SIDES.join(', ')} (no side of the book to read)`, hostile: false },
      body,
    );
  }
  return { ok: true, value: normalizeOrderBook(checked.data, { marketId: ctx.marketId, shape }) };
}

/**
 * GET /trades: `{ data: Trade[] }`, newest first, no paging. A row that cannot be read is rejected
 * under its id (the quarantine's entity_id) while its siblings are kept.
 */
export function parseTradeList(body: unknown): { trades: Checked<Trade>[] } {
  const envelope = parseEnvelope(dataEnvelopeSchema, body, 'trade list');
  return { trades: envelope.data.map(checkTrade) };
}

function checkTrade(payload: unknown): Checked<Trade> {
  const checked = checkRecord(tradeSchema, payload);
  if (!checked.ok) return reject(readId(payload, 'id'), 'trade', checked, payload);
  return normalizeTrade(checked.data, { raw: payload, shape: recordShape(payload, 'trade') });
}

/**
 * An order-book answer refused for its size before it was read: rejected under the market's id,
 * with nothing of it kept (it could only be rejected: see maxOrderBookBytes).
 */
export function oversizedOrderBook(marketId: string, capBytes: number): Checked<OrderBook> {
  const reason = `body: larger than the ${capBytes} bytes an order book may take (not read)`;
  return { ok: false, rejection: { entityId: marketId, reason, payload: { truncated: true, overBytes: capBytes }, shape: HOSTILE_SHAPE } };
}

function parseEnvelope<S extends z.ZodType>(schema: S, body: unknown, what: string): z.output<S> {
  // Records are scanned one by one later: a hostile record must not sink the whole page.
  const result = schema.safeParse(body, { error: readableErrorMap });
  if (!result.success) throw new ResponseShapeError(`unusable ${what} response: ${formatIssues(result.error.issues)}`);
  return result.data;
}

function checkEvent(payload: unknown, provider: string | null): Checked<Event> {
  // The event's raw excludes its markets (each market keeps its own raw and is scanned on its own).
  const raw = isRecord(payload) ? withoutMarkets(payload) : payload;
  const checked = checkRecord(eventSchema, payload, { scan: raw });
  // Its markets were not scanned (they are, one by one, only in an event that passes): the shape is the scanned part's.
  if (!checked.ok) return reject(readId(payload, 'eventId'), 'event', checked, payload, raw);
  const wire = checked.data;

  let markets: Market[] | null = null;
  const rejectedMarkets: Rejection[] = [];
  if (wire.markets !== null && wire.markets !== undefined) {
    markets = [];
    for (let i = 0; i < wire.markets.length; i++) {
      const market = checkMarket(wire.markets[i], wire.eventId, `markets[${i}]`);
      if (market.ok) markets.push(market.value);
      else rejectedMarkets.push(market.rejection);
    }
  }
  return { ok: true, value: normalizeEvent(wire, { provider, raw, shape: recordShape(raw, 'event'), markets, rejectedMarkets }) };
}

function checkMarket(payload: unknown, eventId: string | null, prefix: string): Checked<Market> {
  const checked = checkRecord(marketSchema, payload, { prefix });
  if (!checked.ok) return reject(readId(payload, 'marketId'), 'market', checked, payload);
  const shape = recordShape(payload, 'market');
  // A market that names its event must name the one it was listed under (or embedded in).
  const named = checked.data.eventId;
  if (eventId !== null && typeof named === 'string' && named !== eventId) {
    const reason = `${prefix === '' ? '' : `${prefix}.`}eventId: differs from the event it was listed under, got ${describeValue(named)}`;
    return { ok: false, rejection: { entityId: checked.data.marketId, reason, payload: boundedPayload(payload), shape } };
  }
  return { ok: true, value: normalizeMarket(checked.data, { eventId, raw: payload, shape }) };
}

/**
 * An answer that is readable but names another record than the one requested: rejected under the
 * requested id (the quarantine's entity_id), the reason naming what came instead.
 */
function notRequested(
  key: 'eventId' | 'marketId',
  requestedId: string,
  named: unknown,
  payload: unknown,
  shape: Rejection['shape'],
): { ok: false; rejection: Rejection } {
  const reason = `${key}: differs from the id requested, got ${describeValue(named)}`;
  return { ok: false, rejection: { entityId: requestedId, reason, payload: boundedPayload(payload), shape } };
}

/** The shape is read only from a record that passed the content scan: a hostile one is never walked. */
function reject(
  entityId: string | null,
  kind: ContractKind,
  check: { reason: string; hostile: boolean },
  payload: unknown,
  scanned: unknown = payload,
): { ok: false; rejection: Rejection } {
  const shape = check.hostile ? HOSTILE_SHAPE : recordShape(scanned, kind);
  return { ok: false, rejection: { entityId, reason: check.reason, payload: boundedPayload(payload), shape } };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Object rest copies `__proto__` as a plain own key (CreateDataProperty), never as a prototype. */
function withoutMarkets(payload: Record<string, unknown>): Record<string, unknown> {
  const { markets: _markets, ...rest } = payload;
  return rest;
}

/** Best effort: the id goes into a text column of the quarantine, so it must itself be storable. */
function readId(payload: unknown, key: 'eventId' | 'marketId' | 'id'): string | null {
  if (!isRecord(payload) || !Object.hasOwn(payload, key)) return null;
  const id = payload[key];
  return typeof id === 'string' && id.length > 0 && id.length <= LIMITS.idChars && !id.includes('\u0000') ? id : null;
}
