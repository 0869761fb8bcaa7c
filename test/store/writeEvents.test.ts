import { beforeEach, describe, expect, it } from 'vitest';

import { writeEvents } from '../../src/store/writeEvents.js';
import { bad, event, FIXTURE_SHAPE, market, NO_MARKET_METADATA, ok } from '../helpers/domainFixtures.js';
import { useTestDatabase } from '../helpers/testDatabase.js';

const db = await useTestDatabase();
const t = (min: number) => new Date(Date.UTC(2026, 0, 1, 0, min));

async function counts() {
  const [row] = await db.sql`
    select (select count(*)::int from prediction.events) as events,
           (select count(*)::int from prediction.markets) as markets,
           (select count(*)::int from prediction.event_state_history) as event_states,
           (select count(*)::int from prediction.market_state_history) as market_states,
           (select count(*)::int from prediction.pricing_snapshots) as pricing,
           (select count(*)::int from prediction.rejected_records) as rejected`;
  return row;
}

const page = (events: ReturnType<typeof event>[], at: Date) => ({
  runId: null,
  endpoint: '/events',
  events: events.map(ok),
  observedAt: at,
});

describe('writeEvents', () => {
  beforeEach(async () => {
    await db.sql`truncate prediction.events, prediction.markets, prediction.event_state_history,
      prediction.market_state_history, prediction.pricing_snapshots, prediction.rejected_records cascade`;
  });

  it('stores events, markets, their states and prices once', async () => {
    const written = await writeEvents(db.sql, page([event('E1', [market('M1'), market('M2')]), event('E2', [market('M3')])], t(0)));
    expect(written.rowsByTable).toMatchObject({
      events: 2,
      markets: 3,
      event_state_history: 2,
      market_state_history: 3,
      pricing_snapshots: 3,
    });
    expect(await counts()).toEqual({ events: 2, markets: 3, event_states: 2, market_states: 3, pricing: 3, rejected: 0 });
    const [m1] =
      await db.sql`select event_id, provider, status, result, settlement_time, open_time, raw from prediction.markets where market_id = 'M1'`;
    expect(m1).toMatchObject({ event_id: 'E1', provider: 'polymarket', status: 'open', result: null, settlement_time: null });
    expect(m1!.open_time.toISOString()).toBe('2026-01-01T00:00:00.000Z');
    const [p] = await db.sql`select buy_yes_micro_usd, volume from prediction.pricing_snapshots where market_id = 'M1'`;
    expect(p).toEqual({ buy_yes_micro_usd: '650000', volume: '1234' });
    const [e1] = await db.sql`select tvl_usd, volume_usd, winner, begin_at from prediction.events where event_id = 'E1'`;
    expect(e1).toMatchObject({ tvl_usd: '1000.50', volume_usd: '123456.789', winner: null });
  });

  it('adds no row for an unchanged page, only moves last_seen_at and last_observed_at', async () => {
    const events = [event('E1', [market('M1')])];
    await writeEvents(db.sql, page(events, t(0)));
    const before = await counts();
    const again = await writeEvents(db.sql, page(events, t(5)));
    expect(Object.entries(again.rowsByTable).filter(([, n]) => n !== 0)).toEqual([]);
    expect(again.recordsWritten).toBe(0);
    expect(await counts()).toEqual(before);
    const [m] = await db.sql`select first_seen_at, last_seen_at, changed_at from prediction.markets`;
    expect([m!.first_seen_at, m!.last_seen_at, m!.changed_at].map((d: Date) => d.toISOString())).toEqual(
      [t(0), t(5), t(0)].map((d) => d.toISOString()),
    );
    const [p] = await db.sql`select observed_at, last_observed_at from prediction.pricing_snapshots`;
    expect([p!.observed_at, p!.last_observed_at].map((d: Date) => d.toISOString())).toEqual([t(0), t(5)].map((d) => d.toISOString()));
  });

  it('records exactly the changes: a resolution closes one state row and opens another; a price move adds one snapshot', async () => {
    await writeEvents(db.sql, page([event('E1', [market('M1'), market('M2')])], t(0)));
    const resolved = market('M1', { status: 'closed', result: 'yes', settlementTimeSec: 1_767_300_000 });
    const moved = market('M2', { pricing: { ...market('M2').pricing!, buyYesMicroUsd: '700000' } });
    const written = await writeEvents(db.sql, page([event('E1', [resolved, moved], { winner: 'M1', isActive: false })], t(10)));
    expect(written.rowsByTable).toMatchObject({
      events: 0,
      markets: 0,
      market_state_history: 1,
      event_state_history: 1,
      pricing_snapshots: 1,
    });

    const history =
      await db.sql`select status, result, settlement_time, valid_from, valid_to from prediction.market_state_history where market_id = 'M1' order by valid_from`;
    expect(
      history.map((h) => [
        h.status,
        h.result,
        h.settlement_time?.toISOString() ?? null,
        h.valid_from.toISOString(),
        h.valid_to?.toISOString() ?? null,
      ]),
    ).toEqual([
      ['open', null, null, t(0).toISOString(), t(10).toISOString()],
      ['closed', 'yes', new Date(1_767_300_000_000).toISOString(), t(10).toISOString(), null],
    ]);
    const events = await db.sql`select is_active, winner, valid_to from prediction.event_state_history order by valid_from`;
    expect(events.map((e) => [e.is_active, e.winner, e.valid_to === null])).toEqual([
      [true, null, false],
      [false, 'M1', true],
    ]);
    const prices = await db.sql`select buy_yes_micro_usd from prediction.pricing_snapshots where market_id = 'M2' order by observed_at`;
    expect(prices.map((p) => p.buy_yes_micro_usd)).toEqual(['650000', '700000']);
  });

  it('records a change of any one field of the state or of the prices on its own, and never moves a confirmation back', async () => {
    const pricing = market('M1').pricing!;
    const steps = [
      market('M1'),
      market('M1', { status: 'closed' }),
      market('M1', { status: 'closed', result: 'yes' }),
      market('M1', { status: 'closed', result: 'yes', settlementTimeSec: 1_767_300_000 }),
      // A corrected settlement time is a change too.
      market('M1', { status: 'closed', result: 'yes', settlementTimeSec: 1_767_300_060 }),
      // Only the NO side's sell price moves.
      market('M1', {
        status: 'closed',
        result: 'yes',
        settlementTimeSec: 1_767_300_060,
        pricing: { ...pricing, sellNoMicroUsd: String(Number(pricing.sellNoMicroUsd) + 10_000) },
      }),
    ];
    for (const [i, m] of steps.entries()) await writeEvents(db.sql, page([event('E1', [m])], t(10 * i)));
    const states = await db.sql`
      select status, result, extract(epoch from settlement_time)::int as settlement_sec
      from prediction.market_state_history where market_id = 'M1' order by valid_from`;
    expect(states.map((h) => [h.status, h.result, h.settlement_sec])).toEqual([
      ['open', null, null],
      ['closed', null, null],
      ['closed', 'yes', null],
      ['closed', 'yes', 1_767_300_000],
      ['closed', 'yes', 1_767_300_060],
    ]);
    const prices = await db.sql`select observed_at from prediction.pricing_snapshots where market_id = 'M1' order by observed_at`;
    expect(prices.map((p) => p.observed_at.toISOString())).toEqual([t(0), t(50)].map((d) => d.toISOString()));
    // The same prices observed again, then an earlier observation of them arriving late.
    await writeEvents(db.sql, page([event('E1', [steps.at(-1)!])], t(70)));
    await writeEvents(db.sql, page([event('E1', [steps.at(-1)!])], t(60)));
    const [latest] =
      await db.sql`select last_observed_at from prediction.pricing_snapshots where market_id = 'M1' and observed_at = ${t(50)}`;
    expect(latest!.last_observed_at.toISOString()).toBe(t(70).toISOString());
  });

  it("records a change of an event's live flag or winner on its own, while it stays active", async () => {
    const steps = [event('E1'), event('E1', [], { isLive: true }), event('E1', [], { isLive: true, winner: 'M1' })];
    for (const [i, e] of steps.entries()) await writeEvents(db.sql, page([e], t(10 * i)));
    const states = await db.sql`select is_active, is_live, winner from prediction.event_state_history order by valid_from`;
    expect(states.map((h) => [h.is_active, h.is_live, h.winner])).toEqual([
      [true, false, null],
      [true, true, null],
      [true, true, 'M1'],
    ]);
  });

  it('finds the changed markets of a batch larger than one hashing chunk, and moves last_seen_at of all the others', async () => {
    const ids = Array.from({ length: 5_000 }, (_, i) => `M${String(i).padStart(4, '0')}`);
    const events = (changed: Set<string>) => [
      event(
        'E1',
        ids.map((id) => market(id, changed.has(id) ? { status: 'closed', result: 'no', settlementTimeSec: 1_767_300_000 } : {})),
      ),
    ];
    await writeEvents(db.sql, page(events(new Set()), t(0)));
    // First, middle and last rows of chunks, so a mistake in chunk bookkeeping shows.
    const changed = new Set(['M0000', 'M1999', 'M2000', 'M3333', 'M4999']);
    const written = await writeEvents(db.sql, page(events(changed), t(10)));
    expect(written.recordsWritten).toBe(changed.size);
    expect(written.rowsByTable).toMatchObject({ markets: 0, market_state_history: changed.size });
    const rows = await db.sql`select market_id, status, last_seen_at, changed_at from prediction.markets order by market_id`;
    expect(rows.filter((r) => r.status === 'closed').map((r) => r.market_id)).toEqual([...changed]);
    expect(rows.filter((r) => r.last_seen_at.getTime() !== t(10).getTime())).toEqual([]);
    expect(rows.filter((r) => r.changed_at.getTime() === t(10).getTime()).map((r) => r.market_id)).toEqual([...changed]);
  });

  it('is idempotent: the same page written twice leaves no duplicate, and an older observation changes nothing', async () => {
    const first = [event('E1', [market('M1')])];
    await writeEvents(db.sql, page(first, t(0)));
    const changed = [event('E1', [market('M1', { status: 'closed' })])];
    await writeEvents(db.sql, page(changed, t(10)));
    const snapshot = await counts();
    await writeEvents(db.sql, page(changed, t(10)));
    // A slow writer delivering what it saw earlier must not rewrite history.
    await writeEvents(db.sql, page(first, t(5)));
    expect(await counts()).toEqual(snapshot);
    const [m] = await db.sql`select status from prediction.markets`;
    expect(m!.status).toBe('closed');
  });

  it('quarantines invalid records and stores their valid neighbours; a repeated bad record stays one row', async () => {
    const e = event('E1', [market('M1')], {
      rejectedMarkets: [
        {
          entityId: 'M2',
          reason: 'status: expected one of open|closed, got "halted"',
          payload: { marketId: 'M2', status: 'halted' },
          shape: FIXTURE_SHAPE,
        },
      ],
    });
    const events = [ok(e), bad('E9', 'closeTime: required', { eventId: 'E9' })];
    const written = await writeEvents(db.sql, { runId: null, endpoint: '/events', events, observedAt: t(0) });
    expect(written.recordsRejected).toBe(2);
    await writeEvents(db.sql, { runId: null, endpoint: '/events', events, observedAt: t(5) });
    expect(await counts()).toMatchObject({ events: 1, markets: 1, rejected: 2 });
    const rows =
      await db.sql`select endpoint, entity_id, reason, payload, received_at, last_received_at from prediction.rejected_records order by entity_id`;
    expect(rows.map((r) => [r.endpoint, r.entity_id, r.reason])).toEqual([
      ['/events', 'E9', 'closeTime: required'],
      ['/events#markets', 'M2', 'status: expected one of open|closed, got "halted"'],
    ]);
    expect(rows[1]!.payload).toEqual({ marketId: 'M2', status: 'halted' });
    expect(rows[1]!.received_at.toISOString()).toBe(t(0).toISOString());
    expect(rows[1]!.last_received_at.toISOString()).toBe(t(5).toISOString());
  });

  it('keeps stored metadata when a leaner record of the same market omits it, without counting a change', async () => {
    await writeEvents(db.sql, page([event('E1', [market('M1')])], t(0)));
    const lean = market('M1', NO_MARKET_METADATA);
    for (const minute of [5, 10]) {
      const written = await writeEvents(db.sql, page([event('E1', [lean])], t(minute)));
      expect(written.recordsWritten).toBe(0);
    }
    const [m] = await db.sql`select title, description, is_tradable, changed_at, last_seen_at from prediction.markets`;
    expect(m).toMatchObject({ title: 'Market M1', description: 'desc', is_tradable: true });
    expect([m!.changed_at.toISOString(), m!.last_seen_at.toISOString()]).toEqual([t(0).toISOString(), t(10).toISOString()]);
  });

  it('keeps exact decimals and odd text', async () => {
    const m = market('M1', {
      title: 'tab\there \\ back',
      pricing: {
        buyYesMicroUsd: '0.0000001',
        buyNoMicroUsd: null,
        sellYesMicroUsd: '123456789012345678901234567890',
        sellNoMicroUsd: '1',
        volume: '12.50',
      },
    });
    await writeEvents(db.sql, page([event('E1', [m])], t(0)));
    const [p] = await db.sql`select buy_yes_micro_usd, buy_no_micro_usd, sell_yes_micro_usd, volume from prediction.pricing_snapshots`;
    expect(p).toEqual({
      buy_yes_micro_usd: '0.0000001',
      buy_no_micro_usd: null,
      sell_yes_micro_usd: '123456789012345678901234567890',
      volume: '12.50',
    });
    const [row] = await db.sql`select title from prediction.markets`;
    expect(row!.title).toBe('tab\there \\ back');
  });
});

describe('quarantine of hostile payloads', () => {
  it('stores a rejected record that jsonb itself would refuse, readable, without failing the page', async () => {
    const hostile = JSON.parse('{"eventId":"E7","title":"a\\u0000b","\\u0000k":"\\ud800","__proto__":{"polluted":true}}');
    const huge = { eventId: 'E8', levels: Array.from({ length: 100_000 }, (_, i) => [i, i]) };
    const written = await writeEvents(db.sql, {
      runId: null,
      endpoint: '/events',
      events: [ok(event('E1')), bad('E7', 'title: contains a NUL character', hostile), bad('E8', 'too large', huge)],
      observedAt: t(0),
    });
    expect(written.recordsRejected).toBe(2);
    const rows =
      await db.sql`select entity_id, payload from prediction.rejected_records where entity_id in ('E7', 'E8') order by entity_id`;
    expect(rows[0]!.payload).toEqual({ eventId: 'E7', title: 'a\\u0000b', '\\u0000k': '\uFFFD', ['__proto__']: { polluted: true } });
    expect(rows[1]!.payload).toMatchObject({ truncated: true });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const [e1] = await db.sql`select count(*)::int as n from prediction.events where event_id = 'E1'`;
    expect(e1!.n).toBe(1);
  });
});
