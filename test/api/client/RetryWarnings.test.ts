import { describe, expect, it } from 'vitest';

import { RETRY_WARNING_EVERY_MS, RetryWarnings } from '../../../src/api/client/RetryWarnings.js';

describe('RetryWarnings', () => {
  it('logs the first retry of an endpoint, then one a period with the count left unlogged', () => {
    let nowMs = 0;
    const warnings = new RetryWarnings(() => nowMs);
    const taken: (number | null)[] = [];
    for (let i = 0; i < 5; i++) {
      taken.push(warnings.take('/books')?.unloggedBefore ?? null);
      nowMs += 1_000;
    }
    nowMs = RETRY_WARNING_EVERY_MS;
    taken.push(warnings.take('/books')?.unloggedBefore ?? null);
    taken.push(warnings.take('/books')?.unloggedBefore ?? null);
    expect(taken).toEqual([0, null, null, null, null, 4, null]);
  });

  it('keeps each endpoint to its own period', () => {
    const warnings = new RetryWarnings(() => 0);
    expect(warnings.take('/events')).toEqual({ unloggedBefore: 0 });
    expect(warnings.take('/books')).toEqual({ unloggedBefore: 0 });
    expect(warnings.take('/events')).toBeNull();
  });
});
