import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { STARTER_QUESTIONS } from '../../scripts/metabase/starterQuestions.js';
import type { PredictionClient } from '../../src/api/client/index.js';
import type { Simulator } from '../../src/simulator/index.js';
import { createReaderLogin, type ReaderLogin } from '../helpers/readerLogin.js';
import { startHarness, syncOnce } from '../helpers/syncHarness.js';
import { useTestDatabase } from '../helpers/testDatabase.js';

/**
 * The starter Metabase dashboard's questions answer on what a short demo leaves: a few sync cycles
 * of the simulator, read as Metabase reads (a login granted prediction_reader and nothing else).
 */
const db = await useTestDatabase();
let sim: Simulator;
let client: PredictionClient;
let reader: ReaderLogin;
let readerSql: postgres.Sql;

beforeAll(async () => {
  // The world starts now: the questions ask about the last 24 hours of the database's clock.
  const harness = await startHarness({ shape: 'live', seed: 42, markets: 20, startSec: Math.floor(Date.now() / 1000) });
  sim = harness.sim;
  client = harness.newClient();
  for (let cycle = 0; cycle < 2; cycle++) {
    if (cycle > 0) sim.world.step(600);
    await syncOnce(db.sql, client, sim, { categories: ['all'] });
  }
  reader = await createReaderLogin(db.sql);
  readerSql = postgres(reader.urlFor(db.url), { max: 1, onnotice: () => {} });
}, 120_000);

afterAll(async () => {
  await readerSql?.end({ timeout: 5 });
  await reader?.drop();
  await client?.close();
  await sim?.stop();
});

describe('the starter dashboard’s questions', () => {
  it('are named once each', () => {
    const names = STARTER_QUESTIONS.map((q) => q.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.length).toBeGreaterThanOrEqual(5);
  });

  for (const question of STARTER_QUESTIONS) {
    it(`${question.name}: returns rows to the read-only login`, async () => {
      const rows = await readerSql.unsafe(question.sql);
      expect(rows.length).toBeGreaterThan(0);
    });
  }
});
