import { describe, expect, it } from 'vitest';

import { ENDPOINTS } from '../../src/api/endpoints/requests.js';
import { parseTradeList } from '../../src/api/parse.js';
import { writeTrades } from '../../src/store/writeTrades.js';
import { type FixtureTrade, liveFixture } from '../helpers/replayServer.js';
import { useTestDatabase } from '../helpers/testDatabase.js';

const db = await useTestDatabase();
const recorded = liveFixture<{ data: FixtureTrade[] }>('trades-2026-07.json');
const newestSec = recorded.data[0]!.timestamp;

const write = (body: unknown, polledAtSec: number) =>
  writeTrades(db.sql, {
    runId: null,
    endpoint: ENDPOINTS.listTrades,
    trades: parseTradeList(body).trades,
    polledAt: new Date(polledAtSec * 1000),
  });

/** The same answer moved `bySec` later, every id new. */
const shifted = (rows: FixtureTrade[], bySec: number, idOffset: number) =>
  rows.map((r) => ({ ...r, id: `order-${Number(r.id.slice('order-'.length)) + idOffset}`, timestamp: r.timestamp + bySec }));

const polls = () =>
  db.sql<{ tradesSeen: number; tradesNew: number; gapBefore: boolean; coversFrom: Date; coversTo: Date }[]>`
    select trades_seen as "tradesSeen", trades_new as "tradesNew", gap_before as "gapBefore", covers_from as "coversFrom", covers_to as "coversTo"
    from analytics.trade_coverage order by poll_id`;

describe('writeTrades on the recorded trade feed', () => {
  it('stores the 20 trades exactly; a replay stores nothing twice; an answer of trades all new records a gap', async () => {
    const first = await write(recorded, newestSec + 5);
    expect(first.counts.recordsWritten).toBe(20);
    // Each market of the new trades once, at its latest trade: the books the sweep may fetch next.
    const latest = new Map<string, number>();
    for (const r of recorded.data) latest.set(r.marketId, Math.max(latest.get(r.marketId) ?? 0, r.timestamp * 1000));
    expect(new Map(first.traded.map((t) => [t.marketId, t.tradedAtMs]))).toEqual(latest);
    expect(first.traded).toHaveLength(latest.size);
    const stored = await db.sql`
      select trade_id, market_id, event_id, extract(epoch from traded_at)::float8 as traded_at_sec, action, side,
             price_micro_usd::text as price, amount_micro_usd::text as amount, owner_pubkey, raw, drift
      from prediction.trades order by traded_at desc, trade_id`;
    expect(stored).toEqual(
      recorded.data.map((r) => ({
        trade_id: r.id,
        market_id: r.marketId,
        event_id: r.eventId,
        traded_at_sec: r.timestamp,
        action: r.action,
        side: r.side,
        price: r.priceUsd,
        amount: r.amountUsd,
        owner_pubkey: r.ownerPubkey,
        raw: r,
        drift: [],
      })),
    );

    // The next poll finds the same 20 (a quiet feed): nothing new, and it joins the first poll.
    const again = await write(recorded, newestSec + 65);
    expect(again.counts.recordsWritten).toBe(0);
    expect(again.traded).toEqual([]);
    expect(await db.sql`select count(*)::int as n from prediction.trades`).toEqual([{ n: 20 }]);

    // Half new: joins, because the older half was stored already.
    const half = [...shifted(recorded.data.slice(0, 10), 300, 1000), ...recorded.data.slice(0, 10)];
    const joined = await write({ data: half }, newestSec + 305);
    expect(joined.counts.recordsWritten).toBe(10);
    expect(new Set(joined.traded.map((t) => t.marketId))).toEqual(new Set(recorded.data.slice(0, 10).map((r) => r.marketId)));

    // 20 rows none of which was stored: more than the feed holds came between two polls.
    const burst = await write({ data: shifted(recorded.data, 900, 5000) }, newestSec + 905);
    expect(burst.counts.recordsWritten).toBe(20);

    const at = (sec: number) => new Date(sec * 1000);
    expect(await polls()).toEqual([
      { tradesSeen: 20, tradesNew: 20, gapBefore: true, coversFrom: at(recorded.data.at(-1)!.timestamp), coversTo: at(newestSec + 5) },
      { tradesSeen: 20, tradesNew: 0, gapBefore: false, coversFrom: at(newestSec + 5), coversTo: at(newestSec + 65) },
      { tradesSeen: 20, tradesNew: 10, gapBefore: false, coversFrom: at(newestSec + 65), coversTo: at(newestSec + 305) },
      {
        tradesSeen: 20,
        tradesNew: 20,
        gapBefore: true,
        coversFrom: at(recorded.data.at(-1)!.timestamp + 900),
        coversTo: at(newestSec + 905),
      },
    ]);
  });

  it('quarantines a trade without id or market, or whose price, amount or time cannot be read, and keeps its siblings', async () => {
    const base = recorded.data[0]!;
    const row = (id: string, patch: Record<string, unknown>) => ({ ...base, id, ...patch });
    const { id: _id, ...noId } = base;
    const { marketId: _market, ...noMarket } = row('order-9000002', {});
    const answer = {
      data: [
        row('order-9000001', { action: 'short', side: 'maybe' }),
        noId,
        noMarket,
        row('order-9000003', { priceUsd: 'abc' }),
        row('order-9000004', { amountUsd: '-5' }),
        row('order-9000005', { timestamp: newestSec + 3 * 86_400 }),
        row('order-9000006', { priceUsd: 170000 }),
        row('order-9000007', { amountUsd: `1${'0'.repeat(20)}` }),
      ],
    };
    const before = (await db.sql<{ n: number }[]>`select count(*)::int as n from prediction.rejected_records`)[0]!.n;
    const written = await write(answer, newestSec + 10);
    expect(written.counts.recordsWritten).toBe(2);
    expect(written.counts.recordsRejected).toBe(6);
    expect(
      await db.sql`select trade_id, action, side, drift from prediction.trades where trade_id in ('order-9000001', 'order-9000006') order by 1`,
    ).toEqual([
      { trade_id: 'order-9000001', action: 'short', side: 'maybe', drift: ['trade_action_unknown', 'trade_side_unknown'] },
      { trade_id: 'order-9000006', action: base.action, side: base.side, drift: ['trade_amount_as_number'] },
    ]);
    const rejected = await db.sql<{ entityId: string | null; reason: string }[]>`
      select entity_id as "entityId", reason from prediction.rejected_records where endpoint = '/trades' order by rejection_id offset ${before}`;
    expect(rejected.map((r) => [r.entityId, r.reason.split(':')[0]])).toEqual([
      [null, 'id'],
      ['order-9000002', 'marketId'],
      ['order-9000003', 'priceUsd'],
      ['order-9000004', 'amountUsd'],
      ['order-9000005', 'timestamp'],
      ['order-9000007', 'amountUsd'],
    ]);
  });

  it('stores an answer reaching back most of a year, creating only the months it holds', async () => {
    const base = recorded.data[0]!;
    const polledAtSec = newestSec + 10;
    const old = { ...base, id: 'order-9100001', timestamp: polledAtSec - 360 * 86_400 };
    const fresh = { ...base, id: 'order-9100002', timestamp: polledAtSec - 1 };
    const written = await write({ data: [fresh, old] }, polledAtSec);
    expect(written.counts.recordsWritten).toBe(2);
    const month = (sec: number) => new Date(sec * 1000).toISOString().slice(0, 7).replace('-', '_');
    const months = await db.sql<{ name: string }[]>`
      select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
      where i.inhparent = 'prediction.trades'::regclass order by 1`;
    const names = months.map((m) => m.name);
    // Its two months, and none between them (those the migration made ahead are months after the poll).
    expect(names).toEqual(expect.arrayContaining([`trades_${month(old.timestamp)}`, `trades_${month(fresh.timestamp)}`]));
    expect(names).not.toContain(`trades_${month(old.timestamp + 60 * 86_400)}`);
  });
});
