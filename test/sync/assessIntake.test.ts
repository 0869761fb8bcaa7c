import { describe, expect, it } from 'vitest';

import { assessIntake, type IntakeTotals } from '../../src/sync/assessIntake.js';

const counts = (accepted: number, acceptedWithDrift: number, rejected: number) => ({ accepted, acceptedWithDrift, rejected });
const totals = (overrides: Partial<IntakeTotals> = {}): IntakeTotals => ({
  recordsByEndpoint: { '/events': counts(50, 40, 0), '/events#markets': counts(0, 100, 5) },
  rejectionReasons: { 'markets[].closeTime: expected Unix seconds': 5 },
  allRejectedPages: 0,
  unavailable: 0,
  cutListings: [],
  emptied: 0,
  emptiedFields: {},
  ...overrides,
});
const policy = { maxRejectedPercent: 5, expectRecords: true };

describe('assessIntake', () => {
  it('passes a run at or under the rejected share (5 of 195 is 2.6 %)', () => {
    expect(assessIntake(totals(), policy)).toBeNull();
    expect(assessIntake(totals({ recordsByEndpoint: { '/events': counts(95, 0, 5) } }), policy)).toBeNull();
  });

  it('degrades a run above it, counting drifted records as accepted, and names the three most common reasons', () => {
    const verdict = assessIntake(
      totals({
        recordsByEndpoint: { '/events': counts(0, 90, 4), '/events#markets': counts(0, 0, 7) },
        rejectionReasons: { a: 2, b: 7, c: 1, d: 1 },
      }),
      policy,
    );
    expect(verdict).toBe('rejected 11 of 101 records (10.9 %, more than 5 %); most common reasons: b (7), a (2), c (1)');
  });

  it('degrades a run that rejected a whole listing page, whatever the share', () => {
    expect(assessIntake(totals({ allRejectedPages: 2 }), policy)).toBe(
      '2 listing pages were rejected whole; most common reasons: markets[].closeTime: expected Unix seconds (5)',
    );
  });

  it('degrades a run that received nothing only when records were expected', () => {
    const empty = totals({ recordsByEndpoint: {}, rejectionReasons: {} });
    expect(assessIntake(empty, policy)).toBe('the upstream sent no records');
    expect(assessIntake(empty, { ...policy, expectRecords: false })).toBeNull();
  });

  it('counts the books the upstream could not fetch with the rejected records', () => {
    // 5 rejected + 6 unavailable of 195 + 6 asked: 5.5 %, where the 5 rejected alone are 2.6 %.
    expect(assessIntake(totals({ unavailable: 6 }), policy)).toBe(
      'rejected 5 and could not fetch 6 of 201 records (5.5 %, more than 5 %); most common reasons: markets[].closeTime: expected Unix seconds (5)',
    );
    expect(assessIntake(totals({ unavailable: 5 }), policy)).toBeNull();
    const nothingRead = totals({ recordsByEndpoint: {}, rejectionReasons: {}, unavailable: 3 });
    expect(assessIntake(nothingRead, policy)).toBe('rejected 0 and could not fetch 3 of 3 records (100.0 %, more than 5 %)');
  });

  it('degrades a run that gave a listing up before its end, whatever it read', () => {
    const cut = ['polymarket/sports: the page at start=20 did not advance'];
    expect(
      assessIntake(totals({ cutListings: cut, rejectionReasons: {}, recordsByEndpoint: { '/events': counts(20, 0, 0) } }), policy),
    ).toBe('1 listing was given up before the end: polymarket/sports: the page at start=20 did not advance');
    expect(assessIntake(totals({ cutListings: cut, recordsByEndpoint: {}, rejectionReasons: {} }), policy)).toBe(
      '1 listing was given up before the end: polymarket/sports: the page at start=20 did not advance; the upstream sent no records',
    );
  });

  it('follows the configured share: 100 % never degrades on the share alone', () => {
    const bad = totals({ recordsByEndpoint: { '/events': counts(1, 0, 99) } });
    expect(assessIntake(bad, { ...policy, maxRejectedPercent: 100 })).toBeNull();
    expect(assessIntake(bad, { ...policy, maxRejectedPercent: 98.9 })).toMatch(/^rejected 99 of 100 records/);
  });

  it('degrades a run whose markets were stored with a needed field emptied, above the share, naming the fields', () => {
    // 100 markets accepted, none rejected, but the status of 95 arrived as a number: stored, yet null.
    const emptied = totals({
      recordsByEndpoint: { '/events#markets': counts(0, 100, 0) },
      rejectionReasons: {},
      emptied: 95,
      emptiedFields: { status: 95, closeTime: 2 },
    });
    expect(assessIntake(emptied, policy)).toBe(
      'rejected 0 and stored 95 with a needed field unreadable and left empty (status 95, closeTime 2) of 100 records (95.0 %, more than 5 %)',
    );
    // At or under the share it is no more than drift.
    expect(assessIntake({ ...emptied, emptied: 5, emptiedFields: { status: 5 } }, policy)).toBeNull();
  });
});
