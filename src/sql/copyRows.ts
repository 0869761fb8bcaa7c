import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Queryable } from './queryable.js';

/** Fields are text, exact decimals as strings, or integers. */
export type CopyField = string | number | null;

/**
 * Streams rows into `table (columns)` with COPY FROM STDIN (text format): the fastest bulk path
 * Postgres has. Rows must already be valid: postgres.js 3.4 can hang when the server rejects a row
 * mid-COPY, so a deadline destroys the stream rather than waiting forever.
 */
export async function copyRows(
  sql: Queryable,
  table: string,
  columns: readonly string[],
  rows: Iterable<readonly CopyField[]>,
  deadlineMs = 60_000,
): Promise<void> {
  const sink = await sql.unsafe(`copy ${table} (${columns.join(', ')}) from stdin`).writable();
  const timer = setTimeout(() => sink.destroy(new Error(`COPY into ${table} exceeded ${deadlineMs} ms`)), deadlineMs);
  try {
    await pipeline(Readable.from(encode(rows)), sink);
  } finally {
    clearTimeout(timer);
  }
}

const BATCH_ROWS = 2_000;

function* encode(rows: Iterable<readonly CopyField[]>): Generator<string> {
  let chunk = '';
  let n = 0;
  for (const row of rows) {
    chunk += row.map(field).join('\t') + '\n';
    if (++n === BATCH_ROWS) {
      yield chunk;
      chunk = '';
      n = 0;
    }
  }
  if (chunk) yield chunk;
}

function field(value: CopyField): string {
  if (value === null) return '\\N';
  if (typeof value === 'number') return String(value);
  // COPY text format: backslash, tab, newline and carriage return must be escaped.
  return /[\\\t\n\r]/.test(value) ? value.replace(/[\\\t\n\r]/g, (c) => ESCAPES[c]!) : value;
}

const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };
