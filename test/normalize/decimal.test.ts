import { describe, expect, it } from 'vitest';

import { decimalFromNumber, decimalFromString, toDecimal } from '../../src/normalize/decimal.js';

describe('decimalFromString', () => {
  it.each([
    ['650000', '650000'],
    ['0.65', '0.65'],
    ['0', '0'],
    ['000', '0'],
    ['007.50', '7.5'],
    ['1.000', '1'],
    ['0.0000001', '0.0000001'],
    ['1,234.56', '1234.56'],
    ['1,234,567', '1234567'],
    ['-0.0', '0'],
    ['-12.30', '-12.3'],
    // More digits than a double holds: must survive untouched.
    ['123456789012345678901234567890.123456789012345678901', '123456789012345678901234567890.123456789012345678901'],
  ])('%s -> %s', (input, out) => {
    expect(decimalFromString(input)).toBe(out);
  });
});

describe('decimalFromNumber', () => {
  it.each([
    [650000, '650000'],
    [0.65, '0.65'],
    [0, '0'],
    [-0, '0'],
    [1e-7, '0.0000001'],
    [1.5e-7, '0.00000015'],
    [1e21, '1000000000000000000000'],
    [1.5e21, '1500000000000000000000'],
    [123.456e20, '12345600000000000000000'],
    [99.9, '99.9'],
    [-2.5e-8, '-0.000000025'],
    [0.1 + 0.2, '0.30000000000000004'],
  ])('%s -> %s', (input, out) => {
    expect(decimalFromNumber(input)).toBe(out);
  });

  it('never emits an exponent', () => {
    for (const n of [5e-324, 1.7976931348623157e308, 1e-100, 3.3e99]) expect(decimalFromNumber(n)).toMatch(/^-?\d+(\.\d+)?$/);
    expect(decimalFromNumber(5e-324)).toBe(`0.${'0'.repeat(323)}5`);
  });

  it('refuses non-finite numbers', () => {
    expect(() => decimalFromNumber(Number.NaN)).toThrow(RangeError);
    expect(() => decimalFromNumber(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });
});

describe('toDecimal', () => {
  it('dispatches on type', () => {
    expect(toDecimal('650000.00')).toBe('650000');
    expect(toDecimal(650000)).toBe('650000');
  });
});
