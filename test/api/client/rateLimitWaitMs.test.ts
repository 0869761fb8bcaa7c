import { describe, expect, it } from 'vitest';

import { rateLimitWaitMs } from '../../../src/api/client/rateLimitWaitMs.js';

const NOW_MS = 1_750_000_000_250;

describe('rateLimitWaitMs (pure)', () => {
  it('reads Retry-After in seconds, decimals included', () => {
    expect(rateLimitWaitMs({ 'retry-after': '5' }, NOW_MS)).toBe(5000);
    expect(rateLimitWaitMs({ 'retry-after': '0.25' }, NOW_MS)).toBe(250);
  });

  it('reads Retry-After as an HTTP date', () => {
    const in10s = new Date(NOW_MS + 10_000).toUTCString();
    // HTTP dates have whole seconds: up to 10 s minus the 250 ms the clock is into its second.
    expect(rateLimitWaitMs({ 'retry-after': in10s }, NOW_MS)).toBe(9750);
  });

  it('reads x-ratelimit-reset as absolute Unix seconds', () => {
    expect(rateLimitWaitMs({ 'x-ratelimit-reset': '1750000003' }, NOW_MS)).toBe(2750);
  });

  it('takes the later of the two when both are present', () => {
    expect(rateLimitWaitMs({ 'retry-after': '1', 'x-ratelimit-reset': '1750000003' }, NOW_MS)).toBe(2750);
    expect(rateLimitWaitMs({ 'retry-after': '9', 'x-ratelimit-reset': '1750000003' }, NOW_MS)).toBe(9000);
  });

  it('ignores a reset already past (clock skew) and unparseable values', () => {
    expect(rateLimitWaitMs({ 'x-ratelimit-reset': '1749999000' }, NOW_MS)).toBeUndefined();
    expect(rateLimitWaitMs({ 'retry-after': 'soon' }, NOW_MS)).toBeUndefined();
    expect(rateLimitWaitMs({ 'retry-after': '-3' }, NOW_MS)).toBeUndefined();
    expect(rateLimitWaitMs({}, NOW_MS)).toBeUndefined();
    expect(rateLimitWaitMs({ 'retry-after': 'soon', 'x-ratelimit-reset': '1750000001' }, NOW_MS)).toBe(750);
  });

  it('gives no wait for Retry-After 0 or a date already past, so that the default pause applies instead of an immediate retry', () => {
    expect(rateLimitWaitMs({ 'retry-after': '0' }, NOW_MS)).toBeUndefined();
    expect(rateLimitWaitMs({ 'retry-after': new Date(NOW_MS - 5_000).toUTCString() }, NOW_MS)).toBeUndefined();
    expect(rateLimitWaitMs({ 'retry-after': '0', 'x-ratelimit-reset': '1750000002' }, NOW_MS)).toBe(1750);
  });

  it('reads a small reset as seconds remaining (some gateways send that)', () => {
    expect(rateLimitWaitMs({ 'x-ratelimit-reset': '30' }, NOW_MS)).toBe(30_000);
  });
});
