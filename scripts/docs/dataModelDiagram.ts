/**
 * Draws docs/data-model.svg from the project's migrations: migrates a scratch database, reads its
 * catalog (readCatalog) and renders it (renderDataModel). test/docs/dataModelDiagram.test.ts
 * fails when the committed picture no longer matches the migrations.
 *
 *   npx tsx scripts/docs/dataModelDiagram.ts [--db postgres://user@host:5432/postgres]
 *
 * `--db` names a server where this user may CREATE DATABASE (default: the local one, as for the
 * benchmarks); the scratch database is dropped at the end.
 */
import { writeFileSync } from 'node:fs';

import postgres from 'postgres';

import { createScratch, DEFAULT_SERVER_URL, dropScratch } from '../../bench/support/scratchDb.js';
import { readCatalog } from './readCatalog.js';
import { renderDataModel } from './renderDataModel.js';
import { serverUrlArgument } from './serverUrlArgument.js';

export const DATA_MODEL_SVG = new URL('../../docs/data-model.svg', import.meta.url);

async function main(): Promise<void> {
  const serverUrl = serverUrlArgument(process.argv.slice(2), DEFAULT_SERVER_URL);
  const scratch = await createScratch(serverUrl, 'docs_data_model');
  try {
    const sql = postgres(scratch.url, { max: 1, onnotice: () => {} });
    try {
      const catalog = await readCatalog(sql);
      writeFileSync(DATA_MODEL_SVG, renderDataModel(catalog));
      console.log(`docs/data-model.svg: ${catalog.length} tables, views and functions`);
    } finally {
      await sql.end({ timeout: 5 });
    }
  } finally {
    await dropScratch(serverUrl, scratch);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
