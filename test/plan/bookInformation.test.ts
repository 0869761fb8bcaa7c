import { describe, expect, it } from 'vitest';

import { bookInformation } from '../../src/plan/bookInformation.js';
import { allocateBooks, type BookCandidate } from '../../src/sync/bookSchedule.js';
import { intervalShape } from '../../src/sync/changeRate.js';
import { freshShare } from '../../src/sync/fetchAllocation.js';
import { firstPlanSec } from '../../src/sync/planEndMs.js';
import { NO_EVIDENCE } from '../helpers/domainFixtures.js';

const NOW_MS = 1_800_000_000_000;
const OPTIONS = { nowMs: NOW_MS, sweepEverySec: 20, fetchesPerSec: 1, maxAgeSec: 3600, booksPerBatch: 2 };

function candidate(marketId: string, changed: number, unchanged: number, intervalSec: number): BookCandidate {
  return {
    marketId,
    lastFetchedMs: NOW_MS - 10_000,
    listedMovedAtMs: null,
    lastTradedMs: null,
    volumePerSec: 1,
    closeTimeMs: null,
    ...NO_EVIDENCE,
    changedFetches: changed,
    unchangedFetches: unchanged,
    changedIntervalSec: changed * intervalSec,
    unchangedIntervalSec: unchanged * intervalSec,
  };
}

describe('bookInformation', () => {
  it('counts the books whose every fetch found a change, whose rates it can only bound from below', () => {
    const quiet = Array.from({ length: 5 }, (_, i) => candidate(`q${i}`, 2, 8, 30));
    // Eleven changes in eleven fetches 26 s apart; two in two is too little to tell.
    const busy = candidate('busy', 11, 0, 26);
    const young = candidate('young', 2, 0, 26);
    // Eleven fetches that fills brought forward, each finding a change: no less a lower bound.
    const told = { ...candidate('told', 0, 0, 26), signalledChangedFetches: 11, signalledIntervalSec: 11 * 26 };
    const info = bookInformation([...quiet, busy, young, told], OPTIONS);
    expect(info.lowerBoundRates.markets).toBe(2);
    expect(info.lowerBoundRates.changeShare).toBeGreaterThan(0.3);
    expect(info.lowerBoundRates.changeShare).toBeLessThan(1);
    expect(bookInformation(quiet, OPTIONS).lowerBoundRates).toEqual({ markets: 0, changeShare: 0 });
  });

  it('fits the spacing of the fetches on all of them, those a signal brought forward among the changed', () => {
    // Blind fetches whose unchanged intervals are short (20 s) and changed ones long (60 s):
    // uneven.
    const blind = Array.from({ length: 6 }, (_, i) => ({
      ...candidate(`b${i}`, 0, 5, 20),
      changedFetches: 5,
      changedIntervalSec: 5 * 60,
    }));
    const told = blind.map((c) => ({ ...c, signalledChangedFetches: 10, signalledIntervalSec: 10 * 5 }));
    expect(bookInformation(blind, OPTIONS).intervalShape).toBe(intervalShape(blind));
    expect(Number.isFinite(intervalShape(told))).toBe(true);
    // Short signalled intervals that found a change make all the fetches look more even than the
    // blind ones.
    expect(bookInformation(told, OPTIONS).intervalShape).toBeGreaterThan(intervalShape(told));
  });

  it('predicts the changes a signal tells stored the mean signal lag after them, not at the next fetch in turn', () => {
    // Quiet books, half of whose changes a fill told: 4 of 40 blind fetches a minute apart found
    // a change, and 4 signalled fetches did, the signals 3 s before their answers in all.
    const told = (lagSec: number) =>
      Array.from({ length: 20 }, (_, i) => ({
        ...candidate(`t${i}`, 4, 36, 60),
        signalledFetches: 4,
        signalledChangedFetches: 4,
        signalledIntervalSec: 4 * 30,
        signalledLagSec: 4 * lagSec,
      }));
    const soon = bookInformation(told(3), OPTIONS);
    expect(soon.signalLagSec).toBeCloseTo(3, 9);
    // Stored later, the told changes leave the books stale longer, and the blind fetches are
    // fewer; a lag longer than the mean interval between fetches cuts none short (a lag of hours:
    // as if no change were told).
    const late = bookInformation(told(10), OPTIONS);
    const never = bookInformation(told(1e7), OPTIONS);
    expect(soon.predictedFv).toBeGreaterThan(late.predictedFv);
    expect(late.predictedFv).toBeGreaterThan(never.predictedFv);
    expect(soon.predictedF).toBeGreaterThan(never.predictedF);
    // With no signalled fetch there is no lag, and no change taken as told.
    const blind = Array.from({ length: 20 }, (_, i) => candidate(`b${i}`, 4, 36, 60));
    expect(bookInformation(blind, OPTIONS).signalLagSec).toBe(0);
  });

  it("gives round-robin's F and Fv beside the predicted ones: every book fetched evenly, blind", () => {
    const books = Array.from({ length: 6 }, (_, i) => candidate(`b${i}`, 1 + i, 9 - i, 60));
    const info = bookInformation(books, OPTIONS);
    const rates = allocateBooks(books, {
      nowMs: NOW_MS,
      horizonSec: firstPlanSec(OPTIONS.sweepEverySec, OPTIONS.fetchesPerSec),
      fetchesPerSec: OPTIONS.fetchesPerSec,
      maxAgeSec: OPTIONS.maxAgeSec,
      batchSize: OPTIONS.booksPerBatch,
    }).ratesPerSec;
    const even = Array.from(rates, (rate) => freshShare(rate, OPTIONS.fetchesPerSec / 6));
    expect(info.roundRobinF).toBeCloseTo(even.reduce((a, b) => a + b, 0) / 6, 12);
    const rateSum = rates.reduce((a, b) => a + b, 0);
    expect(info.roundRobinFv).toBeCloseTo(even.reduce((a, share, i) => a + rates[i]! * share, 0) / rateSum, 12);
    // Each book changes now and then between fetches 6 s apart: round-robin's F is under 1, and
    // its Fv, weighted to the busier books, lower still.
    expect(info.roundRobinF).toBeLessThan(1);
    expect(info.roundRobinF).toBeGreaterThan(info.roundRobinFv);
  });

  it('divides between the books what the signalled fetches leave of the budget, adding each book its own', () => {
    // A busy book and quiet ones; then the same quiet books with as many signalled fetches again
    // as blind ones, at the same intervals, none finding a change: those fetches are spent on
    // them, and the busy book gets fewer.
    const busy = candidate('busy', 30, 10, 5);
    const quiet = Array.from({ length: 10 }, (_, i) => candidate(`q${i}`, 1, 39, 60));
    const signalled = quiet.map((c) => ({ ...c, signalledFetches: 40, signalledIntervalSec: 40 * 60 }));
    const plain = bookInformation([busy, ...quiet], OPTIONS);
    const spent = bookInformation([busy, ...signalled], OPTIONS);
    expect(spent.predictedFv).toBeLessThan(plain.predictedFv);
  });
});
