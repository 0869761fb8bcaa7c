import { describe, expect, it } from 'vitest';
import { parseOrderBook } from '../../src/api/parse.js';
import type { Checked, OrderBook, Rejection } from '../../src/domain/types.js';
import { specOrderBook } from './fixtures.js';

const ctx = { marketId: 'POLY-558936' };

function rejected(checked: Checked<OrderBook>): Rejection {
  if (checked.ok) throw new Error('expected a rejection');
  return checked.rejection;
}

describe('parseOrderBook', () => {
  it('accepts the spec book', () => {
    const checked = parseOrderBook(specOrderBook(), ctx);
    expect(checked.ok && checked.value.yes[1]).toEqual({ priceCents: '64', size: '250.5' });
    expect(checked.ok && checked.value.marketId).toBe('POLY-558936');
  });

  it('a null body is ok: isNull, empty sides', () => {
    expect(parseOrderBook(null, ctx)).toEqual({ ok: true, value: { marketId: 'POLY-558936', isNull: true, yes: [], no: [], drift: [] } });
  });

  it('accepts the dollars + ascending drift', () => {
    const checked = parseOrderBook({ yes: [[1, 2], [3, 4]], no: [], yes_dollars: [['0.01', 2], ['0.03', 4]], no_dollars: [] }, ctx);
    expect(checked.ok && checked.value.yes.map((l) => l.priceCents)).toEqual(['3', '1']);
    expect(checked.ok && checked.value.drift).toEqual(['orderbook_dollars', 'orderbook_ascending']);
  });

  const cases: [string, unknown, string][] = [
    ['level of 3 numbers', { yes: [[65, 1, 2]], no: [] }, 'yes[0]: too many items: 3 (max 2)'],
    ['level of 1 number', { yes: [], no: [[65]] }, 'no[0]: too few items: 1 (min 2)'],
    ['price above 100 cents', { yes: [[100.5, 1]], no: [] }, 'yes[0][0]: must be <= 100, got 100.5'],
    ['negative price', { yes: [[-1, 1]], no: [] }, 'yes[0][0]: must be >= 0, got -1'],
    ['negative size', { yes: [[50, -0.5]], no: [] }, 'yes[0][1]: must be >= 0, got -0.5'],
    ['price as string', { yes: [['50', 1]], no: [] }, 'yes[0][0]: expected number, got "50"'],
    ['size null', { yes: [[50, null]], no: [] }, 'yes[0][1]: expected number, got null'],
    ['level as object', { yes: [{ price: 50, size: 1 }], no: [] }, 'yes[0]: expected an array, got an object'],
    ['missing no side', { yes: [] }, 'no: required'],
    ['null side', { yes: null, no: [] }, 'yes: expected an array, got null'],
    ['unsorted levels', { yes: [[60, 1], [50, 1], [55, 1]], no: [] }, 'yes[2][0]: levels are not sorted by price'],
    ['repeated price', { yes: [], no: [[40, 1], [40, 2]] }, 'no[1][0]: repeats price 40'],
    ['dollars not an array', { yes: [], no: [], yes_dollars: 'x' }, 'yes_dollars: expected an array, got "x"'],
  ];
  it.each(cases)('rejects %s', (_name, body, reason) => {
    const rejection = rejected(parseOrderBook(body, ctx));
    expect(rejection).toEqual({ entityId: 'POLY-558936', reason, payload: body });
  });

  it.each([[[]], ['book'], [42], [undefined]])('a body that is neither object nor null (%j) is a rejection', (body) => {
    expect(rejected(parseOrderBook(body, ctx)).reason).toMatch(/^(expected an object, got |required)/);
  });
});
