import type { SessionSettings } from '../db/sessionSettings.js';

/**
 * The export's database sessions. Its reads are long and few: the COPY of a table's changed days is
 * one statement that streams for as long as the table takes (minutes for tens of millions of rows),
 * and its repeatable-read transaction waits between statements while DuckDB loads the last chunk.
 * The server-side bounds are therefore hours, not seconds; a frozen connection is still noticed: a
 * COPY sends data all the time, and a days query (a scan and a count) answers within minutes.
 */
export const EXPORT_SESSION_SETTINGS: Readonly<SessionSettings> = Object.freeze({
  statementTimeoutMs: 6 * 60 * 60_000,
  // It reads without locking rows; only a pending schema change could hold it up.
  lockTimeoutMs: 30_000,
  idleInTransactionTimeoutMs: 5 * 60_000,
  connectTimeoutSec: 10,
  // The export opens no write transaction of the writers' kind, and no statement outside its reads.
  transactionDeadlineMs: 60_000,
  statementDeadlineMs: 60_000,
  answerDeadlineMs: 30 * 60_000,
});
