import { setImmediate } from 'node:timers/promises';

import { describe, expect, it } from 'vitest';

import { ARRIVAL_GROUP_MS, byArrival, fetchInBatches } from '../../src/sync/fetchInBatches.js';

describe('fetchInBatches', () => {
  it("stamps each group of answers with its own arrival, not with the batch's slowest answer", async () => {
    let clockMs = 0;
    const answer = new Map<string, (value: string) => void>();
    const writes: { items: string[]; atMs: number }[] = [];
    const run = fetchInBatches(
      ['fast', 'also fast', 'slow'],
      (item) => new Promise<string>((resolve) => answer.set(item, resolve)),
      async (results, observedAt) => void writes.push({ items: results.map((r) => r.item), atMs: observedAt.getTime() }),
      { batchSize: 50, now: () => new Date(clockMs) },
    );
    await setImmediate();
    clockMs = 1_000;
    answer.get('fast')!('F');
    await setImmediate();
    clockMs = 1_000 + ARRIVAL_GROUP_MS / 2;
    answer.get('also fast')!('A');
    await setImmediate();
    // A minute later, as at a low rate limit or behind another job's requests.
    clockMs = 61_000;
    answer.get('slow')!('S');
    await run;
    expect(writes).toEqual([
      { items: ['fast', 'also fast'], atMs: 1_000 + ARRIVAL_GROUP_MS / 2 },
      { items: ['slow'], atMs: 61_000 },
    ]);
  });

  it('groups answers by arrival, each group stamped no earlier than any of its answers', () => {
    const at = (ms: number) => new Date(ms);
    const groups = byArrival([
      { item: 'a', result: 1, at: at(0), position: 0 },
      { item: 'b', result: 2, at: at(ARRIVAL_GROUP_MS), position: 1 },
      { item: 'c', result: 3, at: at(ARRIVAL_GROUP_MS + 1), position: 2 },
      // A clock stepped back: still in the group, which keeps its later stamp.
      { item: 'd', result: 4, at: at(ARRIVAL_GROUP_MS), position: 3 },
    ]);
    expect(groups.map((g) => [g.results.map((r) => r.item), g.observedAt.getTime()])).toEqual([
      [['a', 'b'], ARRIVAL_GROUP_MS],
      [['c', 'd'], ARRIVAL_GROUP_MS + 1],
    ]);
  });

  it('writes a group of answers in the order of the items, whatever order they arrived in', async () => {
    const answer = new Map<string, (value: string) => void>();
    const writes: string[][] = [];
    const run = fetchInBatches(
      ['first', 'second', 'third'],
      (item) => new Promise<string>((resolve) => answer.set(item, resolve)),
      async (results) => void writes.push(results.map((r) => r.item)),
      { batchSize: 3, now: () => new Date(0) },
    );
    await setImmediate();
    for (const item of ['third', 'first', 'second']) {
      answer.get(item)!(item);
      await setImmediate();
    }
    await run;
    expect(writes).toEqual([['first', 'second', 'third']]);
  });
});
