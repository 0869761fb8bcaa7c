/**
 * Measures one step against a scratch database: wall time, the WAL it wrote (own database only,
 * by relation, full-page images apart) and the row counters of chosen tables.
 *
 * WAL comes from pg_walinspect filtered on the database's OID, so other sessions writing to other
 * databases on the same server (tests, other benchmarks) do not count. Records without a block
 * reference (commit records, ~40 bytes per transaction) are not attributed and so not counted;
 * the server-wide LSN difference is reported beside it. A CHECKPOINT before each step makes the
 * full-page images comparable between a step and its baseline.
 */
import postgres from 'postgres';

import type { ScratchDb } from './scratchDb.js';

export interface WalUse {
  /** Bytes of WAL records touching this database's relations, full-page images included. */
  bytes: number;
  fpiBytes: number;
  records: number;
  /** Server-wide LSN difference over the step (includes other sessions' WAL). */
  serverBytes: number;
  byRelation: { relation: string; bytes: number; fpiBytes: number; records: number }[];
  /**
   * Checkpoint records written during the step, server-wide (any session's CHECKPOINT, or a timed
   * one). After one, the next change of each page writes its full image again: a step that spans
   * one pays FPI its baseline did not.
   */
  checkpoints: number;
}

export interface TableCounters {
  inserted: number;
  updated: number;
  hotUpdated: number;
  deleted: number;
  deadTuples: number;
}

export interface StepMeasure<T> {
  ms: number;
  /**
   * CPU this (client) process used during the step, user + system, ms. Beside `ms` it tells a
   * client-bound step from a server-bound one, and it moves less than wall time on a busy machine.
   */
  clientCpuMs: number;
  result: T;
  wal: WalUse;
  /** Counter deltas over the step, per table (toast tables as "<table> (toast)"). */
  tables: Record<string, TableCounters>;
}

type Probe = postgres.ReservedSql;

/**
 * Runs `fn` on a fresh pool (`work`, one connection unless told), closed afterwards so its
 * statistics are flushed. `probe` is a second connection, e.g. to look at row locks while `fn` holds a transaction.
 */
export async function measureStep<T>(
  db: ScratchDb,
  tables: readonly string[],
  fn: (work: postgres.Sql, probe: Probe) => Promise<T>,
  workOptions: { max?: number } = {},
): Promise<StepMeasure<T>> {
  const pool = postgres(db.url, { max: 1, onnotice: () => {} });
  const probe = await pool.reserve();
  // A temporary slot keeps the step's WAL on disk until it is read, even if a checkpoint recycles
  // segments meanwhile; the server drops it when this session ends, whatever happens.
  const slot = `bench_wal_${process.pid}_${Math.floor(Math.random() * 1e9)}`;
  try {
    await probe`select pg_create_physical_replication_slot(${slot}, true, true)`;
    await probe`checkpoint`;
    const [{ oid }] = (await probe`select oid::int from pg_database where datname = current_database()`) as unknown as [{ oid: number }];
    const before = await counters(probe, tables);
    const [{ lsn }] = (await probe`select pg_current_wal_insert_lsn()::text as lsn`) as unknown as [{ lsn: string }];
    const work = postgres(db.url, { max: workOptions.max ?? 1, onnotice: () => {} });
    const start = performance.now();
    const cpu = process.cpuUsage();
    let result: T;
    let ms: number;
    let clientCpuMs: number;
    try {
      result = await fn(work, probe);
      ms = performance.now() - start;
      const used = process.cpuUsage(cpu);
      clientCpuMs = (used.user + used.system) / 1000;
    } finally {
      await work.end({ timeout: 5 });
    }
    // A backend flushes its statistics when it exits; give the exit a moment.
    await new Promise((r) => setTimeout(r, 300));
    const wal = await walSince(probe, lsn, oid);
    const after = await counters(probe, tables);
    const delta: Record<string, TableCounters> = {};
    for (const [name, a] of Object.entries(after)) {
      const b = before[name] ?? { inserted: 0, updated: 0, hotUpdated: 0, deleted: 0, deadTuples: 0 };
      delta[name] = {
        inserted: a.inserted - b.inserted,
        updated: a.updated - b.updated,
        hotUpdated: a.hotUpdated - b.hotUpdated,
        deleted: a.deleted - b.deleted,
        deadTuples: a.deadTuples - b.deadTuples,
      };
    }
    return { ms, clientCpuMs, result, wal, tables: delta };
  } finally {
    await probe`select pg_drop_replication_slot(${slot})`.catch(() => {});
    probe.release();
    await pool.end({ timeout: 5 });
  }
}

async function counters(sql: Probe, tables: readonly string[]): Promise<Record<string, TableCounters>> {
  if (tables.length === 0) return {};
  await sql`select pg_stat_clear_snapshot()`;
  const rows = await sql<({ name: string } & TableCounters)[]>`
    with rels as (
      select t::regclass as rel, t as name from unnest(${tables as string[]}::text[]) t
      union all
      select c.reltoastrelid::regclass, c.oid::regclass::text || ' (toast)' from pg_class c
      where c.oid = any(${tables as string[]}::text[]::regclass[]) and c.reltoastrelid <> 0
    )
    select r.name, s.n_tup_ins::float8 as inserted, s.n_tup_upd::float8 as updated, s.n_tup_hot_upd::float8 as "hotUpdated",
           s.n_tup_del::float8 as deleted, s.n_dead_tup::float8 as "deadTuples"
    from rels r join pg_stat_all_tables s on s.relid = r.rel`;
  return Object.fromEntries(rows.map(({ name, ...c }) => [name, c]));
}

async function walSince(sql: Probe, startLsn: string, dbOid: number): Promise<WalUse> {
  const [{ server }] =
    (await sql`select pg_wal_lsn_diff(pg_current_wal_insert_lsn(), ${startLsn}::pg_lsn)::float8 as server`) as unknown as [
      { server: number },
    ];
  // Aggregate by file node first (millions of records), then name the few relations found. The
  // patterns are parameters: a tagged template's text would lose their backslashes.
  const byRelation = await sql<WalUse['byRelation']>`
    with r as (
      select substring(block_ref from ${' rel \\d+/\\d+/(\\d+)'})::oid as filenode, count(*) as records,
             sum(record_length) as bytes, sum(fpi_length) as fpi
      from pg_get_wal_records_info(${startLsn}::pg_lsn, pg_current_wal_flush_lsn())
      where block_ref ~ ${` rel \\d+/${dbOid}/`}
      group by 1
    ), named as (
      select r.*, pg_filenode_relation(0, r.filenode) as rel from r
    )
    select coalesce(owner.oid::regclass::text || case when i.indexrelid is null then ' (toast)' else ' (toast index)' end,
                    n.rel::regclass::text, 'filenode ' || n.filenode) as relation,
           n.records::int as records, n.bytes::float8 as bytes, n.fpi::float8 as "fpiBytes"
    from named n
    left join pg_index i on i.indexrelid = n.rel
    left join pg_class owner on owner.reltoastrelid = coalesce(i.indrelid, n.rel)
    order by n.bytes desc`;
  const [{ checkpoints }] = (await sql`
    select count(*)::int as checkpoints from pg_get_wal_records_info(${startLsn}::pg_lsn, pg_current_wal_flush_lsn())
    where resource_manager = 'XLOG' and record_type like 'CHECKPOINT%'`) as unknown as [{ checkpoints: number }];
  const sum = (f: (x: WalUse['byRelation'][number]) => number) => byRelation.reduce((n, x) => n + f(x), 0);
  return {
    bytes: sum((x) => x.bytes),
    fpiBytes: sum((x) => x.fpiBytes),
    records: sum((x) => x.records),
    serverBytes: server,
    byRelation: [...byRelation],
    checkpoints,
  };
}
