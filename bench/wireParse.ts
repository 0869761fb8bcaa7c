/**
 * What reading one upstream record costs on the client, per 1,000 markets (listing pages with
 * embedded markets) and per 1,000 order books, split into its steps: JSON.parse, the hostile-content
 * scan, zod, normalization and the shape fingerprint (src/wire/recordShape.ts).
 *
 *   npx tsx bench/wireParse.ts                 # live and spec shapes, 10,000-market world (~30 s)
 *   npx tsx bench/wireParse.ts --markets 2000  # a smaller world
 *
 * Pure CPU: no database, no network. The bodies are what the simulator serves for its default crawl
 * (one unfiltered listing per provider, 20 events a page, markets embedded; one book per open listed
 * market), rendered once as JSON text. Each step runs over every record in its own loop, so a step's
 * time is not blurred by the others; the full parser (parseEventList / parseOrderBook) runs as well,
 * and the steps should add up to about its time. Times are CPU time of this process (see cpuMsOf),
 * not wall time. Round 0 warms the JIT up; the median of the next rounds is reported.
 */
import { createHash } from 'node:crypto';

import { parseEventList, parseOrderBook } from '../src/api/parse.js';
import { ALL_CATEGORIES, KNOWN_PROVIDERS, type RecordShape } from '../src/domain/types.js';
import { normalizeEvent } from '../src/normalize/event.js';
import { normalizeMarket } from '../src/normalize/market.js';
import { normalizeOrderBook } from '../src/normalize/orderBook.js';
import { type SimCategory, type SimProvider, type WireShape, World } from '../src/simulator/index.js';
import { crawlPlan } from '../src/sync/crawlPlan.js';
import { eventSchema, type EventWire } from '../src/wire/event.js';
import { LIMITS } from '../src/wire/limits.js';
import { marketSchema, type MarketWire } from '../src/wire/market.js';
import { orderBookSchema, type OrderBookWire } from '../src/wire/orderBook.js';
import { recordShape } from '../src/wire/recordShape.js';
import { findHostileContent } from '../src/wire/untrusted.js';
import { fmtInt, median, printTable, section } from './support/report.js';

const PAGE_SIZE = 20;
const ROUNDS = 7;
/** The fastest plan's budget: 150 requests/s. */
const BUDGET_MS = 1000 / 150;
const FIXED_SHAPE: RecordShape = Object.freeze({
  fingerprint: 'bench',
  paths: Object.freeze([]),
  example: null,
  changes: Object.freeze([]),
});

interface Corpus {
  pages: { json: string; provider: string }[];
  books: { json: string; marketId: string }[];
  markets: number;
  events: number;
  levels: number;
}

function corpus(markets: number, shape: WireShape): Corpus {
  const world = new World({ seed: 1, markets, shape });
  const pages: Corpus['pages'] = [];
  const books: Corpus['books'] = [];
  let marketCount = 0;
  let events = 0;
  let levels = 0;
  for (const { provider, category } of crawlPlan(KNOWN_PROVIDERS, [ALL_CATEGORIES])) {
    const listed = world.listEvents({
      provider: provider as SimProvider,
      category: category as SimCategory | 'all',
      sortBy: 'beginAt',
      sortDirection: 'asc',
    });
    for (let start = 0; start < listed.length; start += PAGE_SIZE) {
      const slice = listed.slice(start, start + PAGE_SIZE);
      const end = start + slice.length;
      const data = slice.map((e) => world.eventBody(e.eventId, { includeMarkets: true }));
      pages.push({
        json: JSON.stringify({ data, pagination: { start, end, total: listed.length, hasNext: end < listed.length } }),
        provider,
      });
      events += slice.length;
      for (const e of slice) {
        marketCount += e.marketIds.length;
        for (const m of world.marketsOf(e.eventId)) {
          if (m.status !== 'open') continue;
          const book = world.orderBookBody(m.marketId);
          if (book === undefined) continue;
          if (book !== null) levels += Object.values(book).reduce((n, side) => n + (side as unknown[]).length, 0);
          books.push({ json: JSON.stringify(book), marketId: m.marketId });
        }
      }
    }
  }
  return { pages, books, markets: marketCount, events, levels };
}

function withoutMarkets(payload: Record<string, unknown>): Record<string, unknown> {
  const { markets: _markets, ...rest } = payload;
  return rest;
}

/**
 * A candidate for src/wire/recordShape.ts, measured here only. Objects are walked as recordShape
 * walks them, but the items of an array are first merged into a small tree of types (one node per
 * distinct path below the array), and only that tree's paths are added: an array of 30 levels adds
 * its 3 paths once instead of building and hashing 90 path strings. Same paths, same fingerprint
 * (verified against recordShape on every record of the corpus before it is timed); the memo key
 * lists the same paths in another order, which only matters for the memo.
 */
interface TypeNode {
  mask: number;
  keys: string[] | undefined;
  children: Record<string, TypeNode> | undefined;
  items: TypeNode | undefined;
}
const TYPE_NAMES = ['null', 'array', 'object', 'string', 'number', 'boolean', 'bigint', 'undefined', 'symbol', 'function'] as const;
const TYPE_BIT: Record<string, number> = Object.fromEntries(TYPE_NAMES.map((t, i) => [t, 1 << i]));
const newNode = (): TypeNode => ({ mask: 0, keys: undefined, children: undefined, items: undefined });
const candidateMemo = new Map<string, RecordShape>();

const jsonTypeOf = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

function mergeInto(node: TypeNode, value: unknown, depth: number): void {
  if (value === null) {
    node.mask |= 1;
    return;
  }
  if (typeof value !== 'object') {
    node.mask |= TYPE_BIT[typeof value]!;
    return;
  }
  if (Array.isArray(value)) {
    node.mask |= 2;
    if (depth >= LIMITS.depth) return;
    const items = (node.items ??= newNode());
    for (let i = 0; i < value.length; i++) mergeInto(items, value[i], depth + 1);
    return;
  }
  node.mask |= 4;
  if (depth >= LIMITS.depth) return;
  // Null prototype: a "__proto__" key is a plain key here.
  const children = (node.children ??= Object.create(null) as Record<string, TypeNode>);
  const keys = (node.keys ??= []);
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    let child = children[key];
    if (child === undefined) {
      children[key] = child = newNode();
      keys.push(key);
    }
    mergeInto(child, record[key], depth + 1);
  }
}

function addTree(node: TypeNode, path: string, seen: Set<string>): void {
  for (let i = 0; i < TYPE_NAMES.length; i++) if (node.mask & (1 << i)) seen.add(`${path}:${TYPE_NAMES[i]}`);
  if (node.items) addTree(node.items, `${path}[]`, seen);
  if (node.keys) for (const key of node.keys) addTree(node.children![key]!, `${path}.${key}`, seen);
}

function collectCandidate(value: unknown, path: string, seen: Set<string>, depth: number): void {
  if (path !== '') seen.add(`${path}:${jsonTypeOf(value)}`);
  if (typeof value !== 'object' || value === null || depth >= LIMITS.depth) return;
  if (Array.isArray(value)) {
    if (value.length === 0) return;
    const items = newNode();
    for (let i = 0; i < value.length; i++) mergeInto(items, value[i], depth + 1);
    addTree(items, `${path}[]`, seen);
    return;
  }
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) collectCandidate(record[key], path === '' ? key : `${path}.${key}`, seen, depth + 1);
}

export function candidateRecordShape(record: unknown): RecordShape {
  const seen = new Set<string>();
  collectCandidate(record, '', seen, 0);
  const signature = [...seen].join('\n');
  const known = candidateMemo.get(signature);
  if (known) return known;
  const paths = [...seen].sort();
  const shape: RecordShape = Object.freeze({
    fingerprint: createHash('sha256').update(paths.join('\n')).digest('hex').slice(0, 16),
    paths: Object.freeze(paths),
    example: null,
    changes: Object.freeze([]),
  });
  if (candidateMemo.size >= 1_000) candidateMemo.clear();
  candidateMemo.set(signature, shape);
  return shape;
}

function verifyCandidate(records: readonly unknown[]): void {
  for (const r of records) {
    // The fingerprint is now that of the record's changes against today's contract: the paths are what the candidate builds.
    const a = recordShape(r, 'market');
    const b = candidateRecordShape(r);
    if (a.paths.join('\n') !== b.paths.join('\n')) {
      throw new Error(`candidate paths differ: ${a.fingerprint} vs ${b.fingerprint}`);
    }
  }
}

type Steps = Record<string, number>;

/**
 * CPU time (user + system, all threads of this process, so GC helpers included) of a synchronous
 * step, ms. On a machine shared with other work it moves far less than wall time, which also
 * counts the time the step waited for a core.
 */
function cpuMsOf(f: () => void): number {
  const start = process.cpuUsage();
  f();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

/** One round over the listing pages: each step over every record. */
function listingRound(c: Corpus): Steps {
  const t = cpuMsOf;
  let bodies: { data: Record<string, unknown>[] }[] = [];
  const steps: Steps = {};
  steps['JSON.parse'] = t(() => (bodies = c.pages.map((p) => JSON.parse(p.json) as { data: Record<string, unknown>[] })));
  const events = bodies.flatMap((b) => b.data);
  const raws = events.map(withoutMarkets);
  const markets = events.map((e) => (e.markets ?? []) as unknown[]);
  steps['hostile-content scan'] = t(() => {
    for (let i = 0; i < events.length; i++) {
      findHostileContent(raws[i]);
      for (const m of markets[i]!) findHostileContent(m);
    }
  });
  let eventWires: EventWire[] = [];
  let marketWires: MarketWire[][] = [];
  steps['zod safeParse'] = t(() => {
    eventWires = events.map((e) => eventSchema.safeParse(e).data!);
    marketWires = markets.map((ms) => ms.map((m) => marketSchema.safeParse(m).data!));
  });
  steps['normalize'] = t(() => {
    for (let i = 0; i < events.length; i++) {
      const ms = marketWires[i]!.map((w, j) =>
        normalizeMarket(w, { eventId: eventWires[i]!.eventId, raw: markets[i]![j], shape: FIXED_SHAPE }),
      );
      normalizeEvent(eventWires[i]!, { provider: null, raw: raws[i], shape: FIXED_SHAPE, markets: ms, rejectedMarkets: [] });
    }
  });
  steps['shape fingerprint (recordShape)'] = t(() => {
    for (let i = 0; i < events.length; i++) {
      recordShape(raws[i], 'event');
      for (const m of markets[i]!) recordShape(m, 'market');
    }
  });
  steps['  candidate: array items merged first (bench prototype)'] = t(() => {
    for (let i = 0; i < events.length; i++) {
      candidateRecordShape(raws[i]);
      for (const m of markets[i]!) candidateRecordShape(m);
    }
  });
  // The pipeline's own entry point, on bodies fresh from JSON.parse (excluded from its time).
  const fresh = c.pages.map((p) => JSON.parse(p.json) as unknown);
  steps['parseEventList (all of the above but JSON.parse)'] = t(() => {
    fresh.forEach((body, i) => {
      const parsed = parseEventList(body, { provider: c.pages[i]!.provider });
      if (parsed.events.some((e) => !e.ok)) throw new Error('a simulator record was rejected');
    });
  });
  return steps;
}

function bookRound(c: Corpus): Steps {
  const t = cpuMsOf;
  let bodies: unknown[] = [];
  const steps: Steps = {};
  steps['JSON.parse'] = t(() => (bodies = c.books.map((b) => JSON.parse(b.json) as unknown)));
  steps['hostile-content scan'] = t(() => bodies.forEach((b) => findHostileContent(b)));
  let wires: OrderBookWire[] = [];
  steps['zod safeParse'] = t(() => (wires = bodies.map((b) => orderBookSchema.safeParse(b).data!)));
  steps['normalize'] = t(() => wires.forEach((w, i) => normalizeOrderBook(w, { marketId: c.books[i]!.marketId, shape: FIXED_SHAPE })));
  steps['shape fingerprint (recordShape)'] = t(() => bodies.forEach((b) => recordShape(b, 'orderBook')));
  steps['  candidate: array items merged first (bench prototype)'] = t(() => bodies.forEach((b) => candidateRecordShape(b)));
  const fresh = c.books.map((b) => JSON.parse(b.json) as unknown);
  steps['parseOrderBook (all of the above but JSON.parse)'] = t(() => {
    fresh.forEach((body, i) => {
      if (!parseOrderBook(body, { marketId: c.books[i]!.marketId }).ok) throw new Error('a simulator book was rejected');
    });
  });
  return steps;
}

function medians(rounds: Steps[]): Steps {
  return Object.fromEntries(Object.keys(rounds[0]!).map((k) => [k, median(rounds.map((r) => r[k]!))]));
}

function report(title: string, steps: Steps, per: number, perLabel: string, perRequest: number, perRequestLabel: string): void {
  const total = Object.entries(steps).find(([k]) => k.startsWith('parse'))![1];
  printTable(
    title,
    ['step', `CPU ms per 1,000 ${perLabel}`, `CPU ms per ${perRequestLabel}`, 'share of the parser', 'share of a request budget (6.67 ms)'],
    Object.entries(steps).map(([k, ms]) => {
      const perReq = ms / perRequest;
      return [
        k,
        ((ms / per) * 1000).toFixed(2),
        perReq.toFixed(3),
        k === 'JSON.parse' || k.includes('candidate') ? '' : `${((ms / total) * 100).toFixed(0)} %`,
        `${((perReq / BUDGET_MS) * 100).toFixed(1)} %`,
      ];
    }),
  );
}

function parseArgs(argv: readonly string[]): { markets: number; shapes: WireShape[] } {
  let markets = 10_000;
  let shapes: WireShape[] = ['live', 'spec'];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--markets') markets = Number(argv[++i]);
    else if (argv[i] === '--shape') shapes = [argv[++i] as WireShape];
    else throw new Error(`unknown argument ${argv[i]}; use --markets N, --shape live|spec|mixed`);
  }
  if (!Number.isSafeInteger(markets) || markets < 1) throw new Error('--markets needs a positive integer');
  return { markets, shapes };
}

function main(): void {
  const { markets, shapes } = parseArgs(process.argv.slice(2));
  section(`Wire parsing per 1,000 markets and per 1,000 order books (${fmtInt(markets)}-market world, Node ${process.version})`);
  for (const shape of shapes) {
    const c = corpus(markets, shape);
    const listed = c.pages.flatMap((p) => (JSON.parse(p.json) as { data: Record<string, unknown>[] }).data);
    verifyCandidate([
      ...listed.map(withoutMarkets),
      ...listed.flatMap((e) => (e.markets ?? []) as unknown[]),
      ...c.books.map((b) => JSON.parse(b.json) as unknown),
    ]);
    const listing: Steps[] = [];
    const books: Steps[] = [];
    for (let r = 0; r <= ROUNDS; r++) {
      const l = listingRound(c);
      const b = bookRound(c);
      if (r > 0) {
        listing.push(l);
        books.push(b);
      }
    }
    const mb = (xs: { json: string }[]) => (xs.reduce((n, x) => n + x.json.length, 0) / 1024 / 1024).toFixed(1);
    report(
      `'${shape}' shape: ${c.pages.length} listing pages, ${fmtInt(c.events)} events, ${fmtInt(c.markets)} markets, ${mb(c.pages)} MB (median of ${ROUNDS} rounds)`,
      medians(listing),
      c.markets,
      'markets',
      c.pages.length,
      `page (~${(c.markets / c.pages.length).toFixed(0)} markets)`,
    );
    report(
      `'${shape}' shape: ${fmtInt(c.books.length)} order books, ${fmtInt(c.levels)} levels in all arrays, ${mb(c.books)} MB (median of ${ROUNDS} rounds)`,
      medians(books),
      c.books.length,
      'books',
      c.books.length,
      'book',
    );
  }
}

if (import.meta.url === `file://${process.argv[1]}`) main();
