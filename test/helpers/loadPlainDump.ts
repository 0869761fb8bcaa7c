import { readFile } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';

import postgres from 'postgres';

import { copyLines } from '../../src/sql/core/copyRows.js';

/** The header of a data block in a plain pg_dump: `COPY schema.table (a, b) FROM stdin;`. */
const COPY_HEADER = /^COPY (\S+) \((.+)\) FROM stdin;$/;

/**
 * Restores a gzipped plain-format pg_dump (as `gunzip | psql` would) without psql, which users
 * need not have: each SQL statement runs as it is, each COPY block goes through COPY FROM STDIN,
 * and psql meta-commands (`\restrict`, `\unrestrict`) are skipped. On a connection of its own,
 * because the dump's SET statements (an empty search_path among them) outlive it.
 */
export async function loadPlainDump(databaseUrl: string, gzippedDumpPath: string): Promise<void> {
  const lines = gunzipSync(await readFile(gzippedDumpPath))
    .toString('utf8')
    .split('\n');
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    let statement = '';
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      const copy = statement === '' ? COPY_HEADER.exec(line) : null;
      if (copy) {
        const end = lines.indexOf('\\.', i + 1);
        if (end === -1) throw new Error(`the COPY block at line ${i + 1} has no end`);
        const rows = lines.slice(i + 1, end).map((row) => `${row}\n`);
        await copyLines(sql, copy[1]!, copy[2]!.split(', '), rows);
        i = end;
      } else if (statement === '' && (line === '' || line.startsWith('--') || line.startsWith('\\'))) {
        continue;
      } else {
        statement += `${line}\n`;
        if (line.trimEnd().endsWith(';')) {
          await sql.unsafe(statement);
          statement = '';
        }
      }
    }
    if (statement.trim() !== '') throw new Error(`unterminated statement at the end: ${statement.slice(0, 200)}`);
  } catch (error) {
    throw new Error(`loading ${gzippedDumpPath} failed: ${(error as Error).message}`, { cause: error });
  } finally {
    await sql.end();
  }
}
