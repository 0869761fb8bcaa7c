// An independent reader of an export: a fresh DuckDB in a process of its own, which knows nothing of
// src/export. For each table directory it prints every row, every column rendered as text by DuckDB
// itself (timestamps as UTC ISO with microseconds, decimals as DuckDB prints them, JSON as stored,
// lists as JSON), with the row's hive partition and file name, and the Parquet types of the columns.
//
//   node test/export/readExport.mjs <outDir> <table>...   -> JSON on stdout: { [table]: { types, rows } }
import { existsSync } from 'node:fs';

import { DuckDBInstance } from '@duckdb/node-api';

const [outDir, ...tables] = process.argv.slice(2);
const instance = await DuckDBInstance.create(':memory:');
const db = await instance.connect();
await db.run("SET TimeZone = 'UTC'");
const quote = (s) => `'${s.replaceAll("'", "''")}'`;
const ident = (s) => `"${s.replaceAll('"', '""')}"`;

const result = {};
for (const table of tables) {
  const dir = `${outDir}/${table}`;
  if (!existsSync(dir)) {
    result[table] = { types: {}, rows: [] };
    continue;
  }
  const source = `read_parquet(${quote(`${dir}/*/*.parquet`)}, hive_partitioning = true, hive_types = {'date': VARCHAR}, filename = true)`;
  const described = (await db.runAndReadAll(`DESCRIBE SELECT * FROM ${source}`)).getRowObjectsJson();
  const render = ({ column_name: name, column_type: type }) => {
    const c = ident(name);
    if (type === 'TIMESTAMP WITH TIME ZONE') return `strftime(${c}, '%Y-%m-%dT%H:%M:%S.%fZ')`;
    if (type.endsWith('[]')) return `CAST(to_json(${c}) AS VARCHAR)`;
    return `CAST(${c} AS VARCHAR)`;
  };
  const list = described.map((d) => `${render(d)} AS ${ident(d.column_name)}`).join(', ');
  const rows = (await db.runAndReadAll(`SELECT ${list} FROM ${source}`)).getRowObjectsJson();
  const types = Object.fromEntries(described.map((d) => [d.column_name, d.column_type]));
  result[table] = { types, rows };
}
process.stdout.write(JSON.stringify(result));
