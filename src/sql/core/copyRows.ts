import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setImmediate } from 'node:timers/promises';

import type { Queryable } from './queryable.js';

/** Fields are text, exact decimals as strings, or integers. */
export type CopyField = string | number | null;

/**
 * Streams rows into `table (columns)` with COPY FROM STDIN (text format): the fastest bulk path
 * Postgres has. `table` and `columns` are SQL text, put into the statement as they are: quote
 * them where needed (a schema table's are sqlNames(table).quotedTable and .quoted). Rows must already be valid: postgres.js 3.4 can hang when the server rejects a row
 * mid-COPY, so a deadline destroys the stream rather than waiting forever.
 */
export function copyRows(
  sql: Queryable,
  table: string,
  columns: readonly string[],
  rows: Iterable<readonly CopyField[]>,
  deadlineMs?: number,
): Promise<void> {
  return copyLines(
    sql,
    table,
    columns,
    (function* () {
      for (const row of rows) yield row.map(copyField).join('\t') + '\n';
    })(),
    deadlineMs,
  );
}

/** As copyRows, for rows already encoded: each a line of copyField-escaped fields joined by tabs. */
export async function copyLines(
  sql: Queryable,
  table: string,
  columns: readonly string[],
  lines: Iterable<string>,
  deadlineMs = 60_000,
): Promise<void> {
  const sink = await sql.unsafe(`copy ${table} (${columns.join(', ')}) from stdin`).writable();
  const timer = setTimeout(() => sink.destroy(new Error(`COPY into ${table} exceeded ${deadlineMs} ms`)), deadlineMs);
  try {
    await pipeline(Readable.from(chunks(lines)), sink);
  } finally {
    clearTimeout(timer);
  }
}

/** Bytes (UTF-16 units, near enough) gathered before a chunk goes to the server. */
const CHUNK_CHARS = 64 * 1024;

/**
 * Lines gathered into chunks of about CHUNK_CHARS, with a turn of the event loop after each, so
 * that the socket sends a chunk (and the server stores it) while the next one is being encoded.
 * A synchronous source would otherwise be read far ahead before anything is written.
 */
async function* chunks(lines: Iterable<string>): AsyncGenerator<string> {
  let chunk = '';
  for (const line of lines) {
    chunk += line;
    if (chunk.length >= CHUNK_CHARS) {
      yield chunk;
      chunk = '';
      await setImmediate();
    }
  }
  if (chunk) yield chunk;
}

/** One field in COPY text format: null as \N; backslash, tab, newline and carriage return escaped. */
export function copyField(value: CopyField): string {
  if (value === null) return '\\N';
  if (typeof value === 'number') return String(value);
  return /[\\\t\n\r]/.test(value) ? value.replace(/[\\\t\n\r]/g, (c) => ESCAPES[c]!) : value;
}

const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };
