/**
 * What a pool's sessions are for. Each role gets server-side limits that suit it, so that a hung
 * statement, a lock that is never granted or a client that vanished inside a transaction ends by
 * itself instead of stalling every writer behind it:
 * - `writer`: the page and batch writes, run bookkeeping and every other query of a job;
 * - `probe`: readiness checks, which must answer in seconds or report the database as not ready;
 * - `migration`: schema changes, which may legitimately rewrite or index a large table;
 * - `export`: the long reads of `export`, which stream a table for minutes;
 * - `maintenance`: rebuilding the indexes of a closed month's partitions (packClosedPartitions).
 */
export type DatabaseRole = 'writer' | 'probe' | 'migration' | 'export' | 'maintenance';

export interface SessionSettings {
  /** statement_timeout: the server cancels a statement running longer (SQLSTATE 57014). */
  statementTimeoutMs: number;
  /** lock_timeout: the server cancels a statement waiting longer for one lock, advisory or row or table (55P03). */
  lockTimeoutMs: number;
  /**
   * idle_in_transaction_session_timeout: the server ends a session left idle this long inside a
   * transaction (25P03), which releases its locks: a client that hung or vanished mid-transaction
   * cannot keep the write lock.
   */
  idleInTransactionTimeoutMs: number;
  /** postgres.js connect_timeout: a connection not ready by then fails with CONNECT_TIMEOUT. */
  connectTimeoutSec: number;
  /**
   * Client-side deadline of one write transaction (see writeTransaction), lock wait included. The
   * server enforces nothing over a frozen connection: past this the transaction is abandoned.
   */
  transactionDeadlineMs: number;
  /** Client-side deadline of a single statement outside a write transaction (opening and closing a run). */
  statementDeadlineMs: number;
  /**
   * Client-side, for every statement on the pool (watchAnswers): a connection that owes an answer
   * and sends nothing for this long is destroyed, failing its queries. Longer than the transaction
   * deadline, which thus answers first inside a write. A session that raises its own
   * statement_timeout or lock_timeout must keep them below this.
   */
  answerDeadlineMs: number;
}

/** Default statement_timeout of the writer role (PREDICTION_DB_STATEMENT_TIMEOUT_SEC changes it). */
export const DEFAULT_WRITER_STATEMENT_TIMEOUT_MS = 20_000;

/**
 * Writers, with `statementTimeoutMs` (default 20 s) as the one scale:
 * - statement_timeout 20 s: the longest statement of a page write, the COPY of 50k order-book
 *   levels, takes ~0.2 s and an upsert chunk of 500 markets less; 20 s leaves a margin of ~100x
 *   for a busy disk, a checkpoint or autovacuum. The first load of 100k markets goes page by page,
 *   so it is many such statements, never one long one.
 * - lock_timeout half of it (10 s): the lock a writer waits for is the write lock, held by another
 *   writer for one page transaction (well under a second); waiting longer means that writer hangs.
 *   Below statement_timeout, so that a lock wait fails as such (55P03), not as a slow statement.
 * - idle_in_transaction_session_timeout 5 s (fixed): inside a write transaction the client only
 *   prepares its next statement (milliseconds). A writer that hung mid-transaction thus frees the
 *   write lock within 5 s, before the writers waiting for it reach their lock_timeout.
 * - transaction deadline 1.5 x the statement timeout (30 s): the lock wait plus the statements.
 * - statement deadline: the statement timeout plus a margin of as much again, capped at 5 s
 *   (25 s), so that a working server's own timeout, with its clearer error, answers first.
 * - answer deadline: the transaction deadline plus that margin (35 s).
 * With the defaults a hung database makes `sync` give up on its write after 30 s (on any other
 * statement after 35 s) and on closing its run 25 s later; closing its pools takes 5 s more: it
 * exits 4 within 90 s.
 */
export function writerSettings(statementTimeoutMs = DEFAULT_WRITER_STATEMENT_TIMEOUT_MS): SessionSettings {
  const lockTimeoutMs = Math.ceil(statementTimeoutMs / 2);
  const transactionDeadlineMs = lockTimeoutMs + statementTimeoutMs;
  const marginMs = Math.min(statementTimeoutMs, 5_000);
  return {
    statementTimeoutMs,
    lockTimeoutMs,
    idleInTransactionTimeoutMs: 5_000,
    connectTimeoutSec: 10,
    transactionDeadlineMs,
    statementDeadlineMs: statementTimeoutMs + marginMs,
    answerDeadlineMs: transactionDeadlineMs + marginMs,
  };
}

/** The settings of each role with its defaults (see DatabaseRole). */
export const ROLE_SETTINGS: Readonly<Record<DatabaseRole, Readonly<SessionSettings>>> = Object.freeze({
  writer: Object.freeze(writerSettings()),
  // Readiness answers in seconds or the database counts as not ready; it never waits behind a
  // schema change's lock for long, and never opens a transaction of its own.
  probe: Object.freeze({
    statementTimeoutMs: 5_000,
    lockTimeoutMs: 2_000,
    idleInTransactionTimeoutMs: 5_000,
    connectTimeoutSec: 5,
    transactionDeadlineMs: 5_000,
    statementDeadlineMs: 5_000,
    answerDeadlineMs: 8_000,
  }),
  // A migration may build an index over the order-book levels or backfill a column: minutes, not
  // seconds. Its lock wait outlasts one reader statement (prediction_reader has statement_timeout
  // 60 s) but no more: while it waits for its exclusive lock every other session queues behind it.
  // A session-level wait for another process's migration is a lock wait too: such a wait must
  // raise lock_timeout for itself (set local lock_timeout) if it may last longer.
  migration: Object.freeze(migrationSettings()),
  // The export's reads are long and few: the COPY of a table's changed days is one statement that
  // streams for as long as the table takes (minutes for tens of millions of rows), and its
  // repeatable-read transaction waits between statements while DuckDB loads the last chunk. The
  // server-side bounds are hours, not seconds; a frozen connection is still noticed: a COPY sends
  // data all the time, and a days query (a scan and a count) answers within minutes.
  export: Object.freeze({
    statementTimeoutMs: 6 * 60 * 60_000,
    // It reads without locking rows; only a pending schema change could hold it up.
    lockTimeoutMs: 30_000,
    idleInTransactionTimeoutMs: 5 * 60_000,
    connectTimeoutSec: 10,
    // The export opens no write transaction of the writers' kind, and no statement outside its reads.
    transactionDeadlineMs: 60_000,
    statementDeadlineMs: 60_000,
    answerDeadlineMs: 30 * 60_000,
  }),
  // REINDEX INDEX CONCURRENTLY of one partition's index: minutes for a large month, silent until
  // done, so the client waits past the server's own timeout. It waits for every transaction of the
  // database older than it (lock waits on their ids): packing postpones itself when one has been
  // open for a minute (OLD_SNAPSHOT_MS), and gives up on a younger one after 2 minutes (readers
  // are cut at 60 s), rather than keep a crawl waiting. Nobody waits behind it: SHARE UPDATE
  // EXCLUSIVE on the partition lets every read and write through.
  maintenance: Object.freeze({
    statementTimeoutMs: 2 * 60 * 60_000,
    lockTimeoutMs: 2 * 60_000,
    idleInTransactionTimeoutMs: 60_000,
    connectTimeoutSec: 10,
    transactionDeadlineMs: 60_000,
    statementDeadlineMs: 60_000,
    answerDeadlineMs: 2 * 60 * 60_000 + 10 * 60_000,
  }),
});

/**
 * Migrations, with `statementTimeoutMs` (default 15 min) as the scale: a migration may build an
 * index over a large table or rewrite one (0013 copies the history tables: ~4 s a million
 * order-book levels). The client-side deadlines follow it with margins, so that the server's own
 * timeout answers first; `migrate --statement-timeout-min` raises it for one large database.
 */
export function migrationSettings(statementTimeoutMs = 15 * 60_000): SessionSettings {
  return {
    statementTimeoutMs,
    lockTimeoutMs: 90_000,
    idleInTransactionTimeoutMs: 60_000,
    connectTimeoutSec: 10,
    transactionDeadlineMs: statementTimeoutMs + 5 * 60_000,
    statementDeadlineMs: statementTimeoutMs + 60_000,
    answerDeadlineMs: statementTimeoutMs + 10 * 60_000,
  };
}

/**
 * TCP keep-alive, client side (postgres.js `keep_alive`, seconds of idleness before the first
 * probe): keeps idle pooled connections alive through NATs and firewalls, and lets the kernel
 * notice a peer that is gone. Node sets only the idle time; probes then follow the OS interval.
 */
export const CLIENT_KEEP_ALIVE_SEC = 30;

/**
 * TCP keep-alive, server side: a client that vanished (host down, network cut) is noticed after
 * 30 s idle + 3 unanswered probes 10 s apart, and its session ends, releasing its locks. Ignored
 * over a Unix socket.
 */
const SERVER_KEEP_ALIVE = { tcp_keepalives_idle: 30, tcp_keepalives_interval: 10, tcp_keepalives_count: 3 } as const;

/**
 * The postgres.js `connection` parameters for these settings: sent in the start-up message, so they
 * hold for the whole session from its first statement, whatever pool hands it out. Query
 * parameters of the database URL of the same name take precedence (a postgres.js rule).
 */
export function connectionParameters(settings: SessionSettings, applicationName: string): Record<string, string | number> {
  return {
    application_name: applicationName,
    statement_timeout: settings.statementTimeoutMs,
    lock_timeout: settings.lockTimeoutMs,
    idle_in_transaction_session_timeout: settings.idleInTransactionTimeoutMs,
    ...SERVER_KEEP_ALIVE,
  };
}
