/**
 * Draws docs/demo-market.svg: one market's price history and book depth, from data this project
 * ingested itself. By default it runs the simulator (seed 42, on its manual clock, so the picture
 * is the same each time) and a sync every five simulated minutes for six hours, into a scratch
 * database that is dropped afterwards; `--from URL` reads a database that already holds data
 * instead (the demo's, say) and draws its busiest market.
 *
 *   npx tsx scripts/docs/demoMarketChart.ts [--db postgres://user@host:5432/postgres] [--from postgres://…/prediction_demo]
 */
import { writeFileSync } from 'node:fs';

import postgres from 'postgres';

import { createScratch, DEFAULT_SERVER_URL, dropScratch } from '../../bench/support/scratchDb.js';
import { createPredictionClient } from '../../src/api/client/index.js';
import { connect } from '../../src/db/connect.js';
import { CONCRETE_CATEGORIES, KNOWN_PROVIDERS } from '../../src/domain/types.js';
import { startSimulator } from '../../src/simulator/index.js';
import { runSyncCycle } from '../../src/sync/runSyncCycle.js';
import { pickBusiestMarket, readMarketChart } from './readMarketChart.js';
import { renderMarketChart } from './renderMarketChart.js';
import { serverUrlArgument } from './serverUrlArgument.js';

const OUT = new URL('../../docs/demo-market.svg', import.meta.url);
const SEED = 42;
const MARKETS = 40;
/** Simulated seconds between two syncs, and how many syncs: six simulated hours. */
const STEP_SEC = 300;
const CYCLES = 72;
const API_KEY = 'docs-chart-key';

/** Fills `url` with six hours of the simulated world, a sync every five simulated minutes. */
async function simulateInto(url: string): Promise<void> {
  const sim = await startSimulator({ seed: SEED, markets: MARKETS, apiKey: API_KEY, shape: 'live', rateLimit: { requests: 1_000_000 } });
  const client = createPredictionClient({ baseUrl: sim.url, apiKey: API_KEY, rateLimit: { requests: 1_000_000, windowMs: 60_000 } });
  const db = connect(url, { max: 4 });
  try {
    for (let cycle = 0; cycle < CYCLES; cycle++) {
      if (cycle > 0) sim.world.step(STEP_SEC);
      await runSyncCycle(db.sql, client, {
        providers: KNOWN_PROVIDERS,
        categories: CONCRETE_CATEGORIES,
        maxOrderBooks: null,
        now: () => new Date(sim.world.nowSec * 1000),
      });
    }
  } finally {
    await db.close();
    await client.close();
    await sim.stop();
  }
}

async function draw(url: string, source: string): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const marketId = await pickBusiestMarket(sql);
    if (marketId === undefined) throw new Error('no market in that database has both prices and an order book yet');
    writeFileSync(OUT, renderMarketChart(await readMarketChart(sql, marketId, source)));
    console.log(`docs/demo-market.svg: ${marketId}`);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const from = argv.indexOf('--from');
  if (from !== -1) {
    const url = argv[from + 1] ?? '';
    if (!/^postgres(ql)?:\/\//.test(url)) throw new Error('--from needs the postgres:// URL of a database this project filled');
    await draw(url, 'From a database this project filled.');
    return;
  }
  const serverUrl = serverUrlArgument(argv, DEFAULT_SERVER_URL);
  const scratch = await createScratch(serverUrl, 'docs_demo_market');
  try {
    await simulateInto(scratch.url);
    await draw(
      scratch.url,
      `The built-in simulator (seed ${SEED}, ${MARKETS} markets), synced every ${STEP_SEC / 60} simulated minutes for ${(CYCLES * STEP_SEC) / 3600} hours (scripts/docs/demoMarketChart.ts).`,
    );
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
