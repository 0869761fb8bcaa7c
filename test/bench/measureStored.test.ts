import { describe, expect, it } from 'vitest';

import { measureStored, type StoredBook, type TrueBook } from '../../bench/support/freshness.js';

const WINDOW = { fromMs: 100_000, toMs: 300_000, stepMs: 1_000 };

describe('measureStored', () => {
  it('counts a state stored while it held, before the window too; C in window only what was fetched in it', () => {
    // A: from before the window to 200 s; B: from 200 s on; C (a repeat of A's content) from 250 s on.
    const truth = new Map<string, TrueBook>([
      ['M-1', { rate: 0.01, atMs: [0, 200_000, 250_000], keys: ['a', 'b', 'a'], traded: [false, true, false] }],
    ]);
    const stored = (rows: StoredBook[]) => measureStored(truth, new Map([['M-1', rows]]), WINDOW);

    // A stored at 50 s (before the window, while it held), B at 210 s; the repeat of A never fetched.
    const some = stored([
      { observedMs: 50_000, lastObservedMs: 50_000, key: 'a' },
      { observedMs: 210_000, lastObservedMs: 210_000, key: 'b' },
    ]);
    expect(some.C).toBeCloseTo(2 / 3, 9);
    expect(some.CInWindow).toBeCloseTo(1 / 3, 9);
    expect(some.CTraded).toBe(1);
    expect(some.CUntraded).toBe(0.5);

    // A confirmed again in the window: stored in it as well; the repeat at 260 s is a row of its own.
    const all = stored([
      { observedMs: 50_000, lastObservedMs: 150_000, key: 'a' },
      { observedMs: 210_000, lastObservedMs: 210_000, key: 'b' },
      { observedMs: 260_000, lastObservedMs: 260_000, key: 'a' },
    ]);
    expect(all.C).toBe(1);
    expect(all.CInWindow).toBe(1);
  });
});
