import { describe, expect, it } from 'vitest';

import * as errors from '../../src/api/errors.js';

describe('ApiError and its subclasses', () => {
  type ErrorClass = new (...args: unknown[]) => errors.ApiError;
  const classes = Object.entries(errors as Record<string, unknown>).filter(
    (entry): entry is [string, ErrorClass] =>
      typeof entry[1] === 'function' && (entry[1] === errors.ApiError || entry[1].prototype instanceof errors.ApiError),
  );

  it('exports every error class of the client', () => {
    expect(classes.map(([exported]) => exported)).toContain('ApiRequestAbortedError');
    expect(classes.length).toBe(19);
  });

  it.each(classes)('names an instance of %s after its own class', (exported, ErrorClass) => {
    const error = new ErrorClass('refused', 500, undefined);
    expect(error).toBeInstanceOf(errors.ApiError);
    expect(error.name).toBe(exported);
    expect(String(error)).toMatch(new RegExp(`^${exported}: `));
  });
});
