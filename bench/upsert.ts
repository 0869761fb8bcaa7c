/**
 * Bench 2: change-only upsert of 100k markets with 10 % changed (upsertMarkets), against a fresh
 * COPY of the same rows into an empty identical table. Every variant starts from a byte-identical
 * clone of the same loaded database, so WAL, updates and dead tuples compare directly:
 *  - full:    the 100k batch at a later observation time (10k content changes + 90k last_seen_at bumps);
 *  - content: the same batch once the 90k unchanged rows are already current (only the content part
 *             runs), inside one held transaction so pgrowlocks can count the rows it locked;
 *  - bump:    the 90k unchanged rows alone (only the last_seen_at part runs);
 *  - minimal: a plain `update ... set last_seen_at` of those 90k rows (what the bump needs at least);
 *  - naive:   `insert ... on conflict do update ... where (...) is distinct from (...)` (locks every row);
 *  - ff50:    the minimal update again on a copy rewritten at fillfactor 50 (room for HOT updates).
 */
import type postgres from 'postgres';

import { acquireWriteLock } from '../src/sql/coordination/acquireWriteLock.js';
import type { UpsertCounts } from '../src/sql/core/changeOnlyUpsert.js';
import { copyRows } from '../src/sql/core/copyRows.js';
import { upsertEvents } from '../src/sql/writes/upsertEvents.js';
import { type MarketRow, upsertMarkets } from '../src/sql/writes/upsertMarkets.js';
import { measureStep, type StepMeasure } from './support/meter.js';
import { fmtInt, fmtMB, fmtMs, fmtRatio, printTable, section } from './support/report.js';
import { cleanup, cloneScratch, createScratch, dropScratch, type ScratchDb, withDb } from './support/scratchDb.js';
import { MARKET_COLUMNS, marketCopyRows, settledAt, worldRecords } from './support/worldRecords.js';

const MARKETS = 100_000;
const CHANGED_EVERY = 10;
/** Markets per upsertMarkets call, each in its own transaction with the write lock, as the store does. */
const BATCH = 10_000;
const T0 = new Date('2026-01-02T00:00:00Z');
const T1 = new Date(T0.getTime() + 3_600_000);
const MARKETS_TABLE = 'prediction.markets';
const COPY_TABLE = 'prediction.bench_markets_copy';

async function upsertAll(
  sql: postgres.Sql | postgres.TransactionSql,
  rows: readonly MarketRow[],
  at: Date,
  ownTx = true,
): Promise<UpsertCounts> {
  const total = { inserted: 0, updated: 0, unchanged: 0 };
  for (let i = 0; i < rows.length; i += BATCH) {
    const batch = rows.slice(i, i + BATCH);
    const run = async (tx: postgres.TransactionSql | postgres.Sql) => (await acquireWriteLock(tx), upsertMarkets(tx, batch, at));
    const c = ownTx ? await (sql as postgres.Sql).begin(run) : await run(sql);
    total.inserted += c.inserted;
    total.updated += c.updated;
    total.unchanged += c.unchanged;
  }
  return total;
}

/** The textbook change-only upsert the issue warns about: it locks every conflicting row, changed or not. */
async function naiveUpsert(tx: postgres.TransactionSql, rows: readonly MarketRow[], at: Date): Promise<number> {
  await tx`create temp table stage (like prediction.markets including defaults) on commit drop`;
  await copyRows(tx, 'stage', MARKET_COLUMNS, marketCopyRows(rows, at));
  const content = MARKET_COLUMNS.slice(1, MARKET_COLUMNS.indexOf('first_seen_at'));
  const result = await tx.unsafe(`
    insert into prediction.markets as s (${MARKET_COLUMNS.join(', ')}) select ${MARKET_COLUMNS.join(', ')} from stage
    on conflict (market_id) do update set ${content.map((c) => `${c} = excluded.${c}`).join(', ')}, changed_at = excluded.changed_at
    where (${content.map((c) => `s.${c}`).join(', ')}) is distinct from (${content.map((c) => `excluded.${c}`).join(', ')})`);
  return result.count;
}

async function rowLocks(probe: postgres.Sql | postgres.ReservedSql): Promise<string> {
  const rows = await probe<{ modes: string; n: number }[]>`
    select modes::text, count(*)::int as n from pgrowlocks('prediction.markets') group by 1 order by 1`;
  return rows.map((r) => `${fmtInt(r.n)} ${r.modes}`).join(', ') || '0';
}

export async function benchUpsert(serverUrl: string): Promise<void> {
  section(`2. Upsert of ${fmtInt(MARKETS)} markets, ${100 / CHANGED_EVERY} % changed, vs a fresh COPY`);
  const { events, markets } = worldRecords(MARKETS);
  const changedIds = new Set(markets.filter((_, i) => i % CHANGED_EVERY === 0).map((m) => m.marketId));
  const later = markets.map((m) => (changedIds.has(m.marketId) ? settledAt(m, T1.getTime() / 1000) : m));
  const unchanged = later.filter((m) => !changedIds.has(m.marketId));
  const unchangedIds = unchanged.map((m) => m.marketId);
  const tag = `${process.pid}`;
  const dbs: ScratchDb[] = [];
  try {
    const base = await createScratch(serverUrl, `bench_sync_upsert_base_${tag}`);
    dbs.push(base);
    await withDb(base, async (sql) => {
      for (let i = 0; i < events.length; i += 5_000) await upsertEvents(sql, events.slice(i, i + 5_000), T0);
    });
    const load = await measureStep(base, [MARKETS_TABLE], (w) => upsertAll(w, markets, T0));
    // Steady state, as after autovacuum: hint bits set, visibility map current, statistics known.
    await withDb(base, (sql) => sql`vacuum analyze prediction.markets, prediction.events`);
    const clone = async (name: string) => {
      const db = await cloneScratch(serverUrl, base, `bench_sync_upsert_${name}_${tag}`);
      dbs.push(db);
      return db;
    };
    const [full, content, bump, naive, ff50] = [
      await clone('full'),
      await clone('content'),
      await clone('bump'),
      await clone('naive'),
      await clone('ff50'),
    ];

    // Baseline: the same 100k rows (their later state) into an empty identical table: same columns,
    // indexes, checks, storage parameters and foreign key.
    await withDb(base, async (sql) => {
      await sql.unsafe(`create table ${COPY_TABLE} (like prediction.markets including all)`);
      const [{ opts }] =
        (await sql`select array_to_string(reloptions, ', ') as opts from pg_class where oid = ${MARKETS_TABLE}::regclass`) as unknown as [
          { opts: string | null },
        ];
      if (opts) await sql.unsafe(`alter table ${COPY_TABLE} set (${opts})`);
      await sql.unsafe(`alter table ${COPY_TABLE} add foreign key (event_id) references prediction.events (event_id)`);
    });
    const copy = await measureStep(base, [COPY_TABLE], (w) => copyRows(w, COPY_TABLE, MARKET_COLUMNS, marketCopyRows(later, T1)));

    const upsert = await measureStep(full, [MARKETS_TABLE], (w) => upsertAll(w, later, T1));
    const deadAfterFull = await withDb(
      full,
      (sql) => sql<{ n: number }[]>`select dead_tuple_count::int as n from pgstattuple('prediction.markets')`,
    );

    const minimal = await measureStep(
      content,
      [MARKETS_TABLE],
      async (w) => (await w`update prediction.markets set last_seen_at = ${T1} where market_id = any(${unchangedIds}::text[])`).count,
    );
    // Start (a) clean: the dead versions the plain update left would otherwise be pruned during (a).
    await withDb(content, (sql) => sql`vacuum analyze prediction.markets`);
    const contentOnly = await measureStep(content, [MARKETS_TABLE], (w, probe) =>
      w.begin(async (tx) => ({ counts: await upsertAll(tx, later, T1, false), locks: await rowLocks(probe) })),
    );
    const bumpOnly = await measureStep(bump, [MARKETS_TABLE], (w) => upsertAll(w, unchanged, T1));
    const naiveRun = await measureStep(naive, [MARKETS_TABLE], (w, probe) =>
      w.begin(async (tx) => ({ updated: await naiveUpsert(tx, later, T1), locks: await rowLocks(probe) })),
    );

    await withDb(ff50, async (sql) => {
      await sql`alter table prediction.markets set (fillfactor = 50)`;
      await sql`vacuum full analyze prediction.markets`;
    });
    const minimalFf50 = await measureStep(
      ff50,
      [MARKETS_TABLE],
      async (w) => (await w`update prediction.markets set last_seen_at = ${T1} where market_id = any(${unchangedIds}::text[])`).count,
    );

    const copyMs = copy.ms;
    const row = (name: string, sent: number, m: StepMeasure<unknown>, table: string, locks: string, note: string) => {
      const t = m.tables[table]!;
      return [
        name,
        fmtInt(sent),
        fmtMs(m.ms),
        fmtMs(m.clientCpuMs),
        fmtRatio(m.ms / copyMs),
        fmtRatio(copyMs / m.ms),
        fmtMB(m.wal.bytes - m.wal.fpiBytes),
        fmtMB(m.wal.bytes),
        fmtInt(t.inserted),
        fmtInt(t.updated),
        fmtInt(t.hotUpdated),
        fmtInt(t.deadTuples),
        locks,
        note,
      ];
    };
    const c = upsert.result;
    printTable(
      `upsert vs fresh COPY (batches of ${fmtInt(BATCH)}; WAL of this database only, after a CHECKPOINT)`,
      [
        'step',
        'rows sent',
        'ms',
        'client CPU ms',
        'time ÷ COPY',
        'COPY ÷ time',
        'WAL MB w/o FPI',
        'WAL MB',
        'inserts',
        'updates (= dead versions)',
        'HOT',
        'n_dead_tup Δ',
        'row locks held',
        'what',
      ],
      [
        row('fresh COPY (baseline)', MARKETS, copy, COPY_TABLE, '', 'copyRows of the same 100k rows into an empty identical table'),
        row('initial load upsert', MARKETS, load, MARKETS_TABLE, '', 'upsertMarkets into the empty table (all new)'),
        row(
          'upsert 10 % changed',
          MARKETS,
          upsert,
          MARKETS_TABLE,
          '',
          `upsertMarkets: inserted ${c.inserted}, updated ${c.updated}, unchanged ${c.unchanged}; pgstattuple dead after: ${fmtInt(deadAfterFull[0]!.n)}`,
        ),
        row(
          '(a) content part',
          MARKETS,
          contentOnly,
          MARKETS_TABLE,
          contentOnly.result.locks,
          `same batch, unchanged rows already current: updated ${contentOnly.result.counts.updated}, unchanged ${contentOnly.result.counts.unchanged}`,
        ),
        row(
          '(b) last_seen_at part',
          unchanged.length,
          bumpOnly,
          MARKETS_TABLE,
          '',
          `upsertMarkets of the ${fmtInt(unchanged.length)} unchanged rows only`,
        ),
        row(
          '(b) minimum: plain update',
          unchanged.length,
          minimal,
          MARKETS_TABLE,
          '',
          'update markets set last_seen_at = $t where market_id = any($ids)',
        ),
        row(
          '(b) minimum at fillfactor 50',
          unchanged.length,
          minimalFf50,
          MARKETS_TABLE,
          '',
          'the same plain update after `set (fillfactor = 50)` + VACUUM FULL',
        ),
        row(
          'naive ON CONFLICT … WHERE IS DISTINCT FROM',
          MARKETS,
          naiveRun,
          MARKETS_TABLE,
          naiveRun.result.locks,
          `reference only (temp stage + one statement): updated ${naiveRun.result.updated}`,
        ),
      ],
    );
    const rel = (m: StepMeasure<unknown>) =>
      m.wal.byRelation
        .slice(0, 6)
        .map((r) => `${r.relation} ${fmtMB(r.bytes - r.fpiBytes)}`)
        .join('; ');
    console.log(
      `\nWAL w/o FPI by relation (MB): upsert: ${rel(upsert)}\n  (a): ${rel(contentOnly)}\n  (b): ${rel(bumpOnly)}\n  minimum: ${rel(minimal)}`,
    );
    console.log(
      `server-wide WAL (MB, includes other sessions): COPY ${fmtMB(copy.wal.serverBytes)}, upsert ${fmtMB(upsert.wal.serverBytes)}`,
    );
    console.log(
      `checkpoints during the step (server-wide): COPY ${copy.wal.checkpoints}, upsert ${upsert.wal.checkpoints}, ` +
        `(a) ${contentOnly.wal.checkpoints}, (b) ${bumpOnly.wal.checkpoints}, minimum ${minimal.wal.checkpoints}`,
    );
  } finally {
    await cleanup(() => dropScratch(serverUrl, ...dbs));
  }
}
