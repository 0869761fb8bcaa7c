import { describe, expect, it } from 'vitest';

import { startRun } from '../../src/sql/core/ingestRuns.js';
import { recordShapes, type ShapeObservation } from '../../src/sql/writes/recordShapes.js';
import { useTestDatabase } from '../helpers/testDatabase.js';

const db = await useTestDatabase();

const at = (min: number) => new Date(Date.UTC(2026, 6, 1, 0, min));
const rowsOf = (endpoint: string) => db.sql`
  select fingerprint, paths, example, records_seen::int as records_seen, first_seen_at, last_seen_at, first_run_id::int as first_run_id,
         last_run_id::int as last_run_id
  from prediction.upstream_shapes where endpoint = ${endpoint} order by fingerprint`;

describe('recordShapes', () => {
  it('stores one row per endpoint × fingerprint, summing duplicates of a batch and keeping their first example', async () => {
    const run = await startRun(db.sql, 'sync', at(0));
    const obs: ShapeObservation[] = [
      { endpoint: '/a', fingerprint: 'f1', paths: ['z:number', 'a:string'], example: { a: 'first', z: 1 }, count: 2, changes: [] },
      { endpoint: '/a', fingerprint: 'f2', paths: ['a:string'], example: { a: 'other' }, count: 1, changes: [] },
      { endpoint: '/a', fingerprint: 'f1', paths: ['z:number', 'a:string'], example: { a: 'second', z: 2 }, count: 3, changes: [] },
      // Same fingerprint, another endpoint: a shape of its own.
      { endpoint: '/b', fingerprint: 'f1', paths: ['a:string'], example: {}, count: 1, changes: [] },
    ];
    expect(await recordShapes(db.sql, run, obs, at(0))).toBe(3);
    expect(await rowsOf('/a')).toEqual([
      {
        fingerprint: 'f1',
        paths: ['a:string', 'z:number'],
        example: { a: 'first', z: 1 },
        records_seen: 5,
        first_seen_at: at(0),
        last_seen_at: at(0),
        first_run_id: run,
        last_run_id: run,
      },
      {
        fingerprint: 'f2',
        paths: ['a:string'],
        example: { a: 'other' },
        records_seen: 1,
        first_seen_at: at(0),
        last_seen_at: at(0),
        first_run_id: run,
        last_run_id: run,
      },
    ]);
    expect(await rowsOf('/b')).toHaveLength(1);
  });

  it('is idempotent in rows and example when a batch is recorded again, and only records_seen counts on', async () => {
    const run = await startRun(db.sql, 'sync', at(0));
    const obs: ShapeObservation[] = [
      { endpoint: '/idem', fingerprint: 'f', paths: ['x:null'], example: { x: null }, count: 4, changes: [] },
    ];
    expect(await recordShapes(db.sql, run, obs, at(5))).toBe(1);
    const [before] = await rowsOf('/idem');
    expect(await recordShapes(db.sql, run, obs, at(5))).toBe(0);
    expect(await recordShapes(db.sql, run, [{ ...obs[0]!, paths: ['changed:string'], example: { changed: true } }], at(5))).toBe(0);
    const after = await rowsOf('/idem');
    expect(after).toEqual([{ ...before, records_seen: 12 }]);
  });

  it('never moves last_seen_at / last_run_id back, nor first_seen_at / first_run_id forward', async () => {
    const [r1, r2, r3, r4] = [
      await startRun(db.sql, 'sync', at(0)),
      await startRun(db.sql, 'sync', at(1)),
      await startRun(db.sql, 'sync', at(2)),
      await startRun(db.sql, 'sync', at(3)),
    ];
    const obs = (count: number): ShapeObservation[] => [
      { endpoint: '/order', fingerprint: 'f', paths: [], example: { n: count }, count, changes: [] },
    ];
    await recordShapes(db.sql, r2, obs(1), at(20));
    await recordShapes(db.sql, r3, obs(1), at(30));
    // A replay of something observed in between moves neither end.
    await recordShapes(db.sql, r4, obs(1), at(25));
    expect(await rowsOf('/order')).toMatchObject([
      { first_seen_at: at(20), first_run_id: r2, last_seen_at: at(30), last_run_id: r3, records_seen: 3 },
    ]);
    // An older one than the first moves only the first back.
    await recordShapes(db.sql, r1, obs(1), at(10));
    expect(await rowsOf('/order')).toMatchObject([
      { first_seen_at: at(10), first_run_id: r1, last_seen_at: at(30), last_run_id: r3, records_seen: 4 },
    ]);
    // A newer one moves the last forward; the example stays the one first stored.
    await recordShapes(db.sql, null, obs(1), at(40));
    expect(await rowsOf('/order')).toMatchObject([{ first_seen_at: at(10), last_seen_at: at(40), last_run_id: null, example: { n: 1 } }]);
  });

  it('stores what jsonb and text refuse (NUL, unpaired surrogates) in paths and example readably', async () => {
    const obs: ShapeObservation[] = [
      {
        endpoint: '/hostile',
        fingerprint: 'f',
        paths: ['a\u0000b:string', 'c\ud800:number'],
        example: { 'a\u0000b': 'x\u0000y' },
        count: 1,
        changes: [],
      },
    ];
    expect(await recordShapes(db.sql, null, obs, at(0))).toBe(1);
    const [row] = await rowsOf('/hostile');
    expect(row!.paths).toEqual(['a\\u0000b:string', 'c\ufffd:number']);
    expect(row!.example).toMatchObject({ 'a\\u0000b': 'x\\u0000y' });
  });

  it("writes within the caller's transaction: rolled back with it", async () => {
    const rollback = new Error('rollback');
    await db.sql
      .begin(async (tx) => {
        expect(
          await recordShapes(tx, null, [{ endpoint: '/tx', fingerprint: 'f', paths: [], example: null, count: 1, changes: [] }], at(0)),
        ).toBe(1);
        throw rollback;
      })
      .catch((error: unknown) => {
        if (error !== rollback) throw error;
      });
    expect(await rowsOf('/tx')).toEqual([]);
  });

  it('does nothing for an empty batch and refuses a count that is not a positive integer', async () => {
    expect(await recordShapes(db.sql, null, [], at(0))).toBe(0);
    for (const count of [0, -1, 1.5, Number.NaN]) {
      await expect(
        recordShapes(db.sql, null, [{ endpoint: '/bad', fingerprint: 'f', paths: [], example: null, count, changes: [] }], at(0)),
      ).rejects.toThrow(RangeError);
    }
    expect(await rowsOf('/bad')).toEqual([]);
  });
});
