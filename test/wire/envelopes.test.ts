import { describe, expect, it } from 'vitest';

import { parseEventArray, parseEventList, parseMarketList, ResponseShapeError } from '../../src/api/parse.js';
import { DRIFT } from '../../src/normalize/driftTags.js';
import { liveEvent, liveMarket, specEvent, specMarket, specPagination, without } from './fixtures.js';

describe('parseEventList', () => {
  it('keeps the good siblings of a bad event, in order, and returns the pagination', () => {
    // Text Postgres cannot store: a record that cannot be read soundly.
    const bad = specEvent({ eventId: 'POLY-BAD', metadata: { title: 'a\u0000b' } });
    const result = parseEventList(
      { data: [specEvent(), bad, specEvent({ eventId: 'POLY-3' })], pagination: specPagination() },
      { provider: 'kalshi' },
    );
    expect(result.pagination).toEqual({ start: 0, end: 20, total: 57, hasNext: true });
    expect(result.events.map((e) => (e.ok ? e.value.eventId : `rejected ${e.rejection.entityId}`))).toEqual([
      'POLY-30615',
      'rejected POLY-BAD',
      'POLY-3',
    ]);
    expect(result.events[0]?.ok && result.events[0].value.provider).toBe('kalshi');
    expect(result.events[1]?.ok === false && result.events[1].rejection).toMatchObject({
      entityId: 'POLY-BAD',
      reason: 'metadata.title: contains a NUL character',
      payload: bad,
    });
  });

  it('an event in an undocumented category is kept on the page, tagged', () => {
    const result = parseEventList(
      { data: [liveEvent({ category: 'climate & science' })], pagination: specPagination() },
      { provider: 'polymarket' },
    );
    expect(result.events[0]?.ok && [result.events[0].value.category, result.events[0].value.drift.includes(DRIFT.categoryUnknown)]).toEqual(
      ['climate & science', true],
    );
  });

  it('an empty page is fine', () => {
    expect(
      parseEventList({ data: [], pagination: specPagination({ end: 0, total: 0, hasNext: false }) }, { provider: 'polymarket' }),
    ).toEqual({
      events: [],
      pagination: { start: 0, end: 0, total: 0, hasNext: false },
    });
  });

  it('extra envelope and pagination keys are ignored', () => {
    const result = parseEventList({ data: [], pagination: { ...specPagination(), pageSize: 20 }, meta: {} }, { provider: 'polymarket' });
    expect(result.pagination).toEqual({ start: 0, end: 20, total: 57, hasNext: true });
  });

  const unusable: [string, unknown, string][] = [
    ['null body', null, 'unusable event list response: expected an object, got null'],
    ['array body', [specEvent()], 'unusable event list response: expected an object, got an array of 1 item'],
    ['data missing', { pagination: specPagination() }, 'unusable event list response: data: required'],
    [
      'data not an array',
      { data: {}, pagination: specPagination() },
      'unusable event list response: data: expected an array, got an object',
    ],
    ['pagination missing', { data: [] }, 'unusable event list response: pagination: required'],
    [
      'pagination field missing',
      { data: [], pagination: without(specPagination(), 'hasNext') },
      'unusable event list response: pagination.hasNext: required',
    ],
    [
      'pagination negative',
      { data: [], pagination: specPagination({ start: -1 }) },
      'unusable event list response: pagination.start: must be >= 0, got -1',
    ],
    [
      'pagination as string',
      { data: [], pagination: specPagination({ end: '20' }) },
      'unusable event list response: pagination.end: expected number, got "20"',
    ],
    [
      'pagination fractional',
      { data: [], pagination: specPagination({ total: 1.5 }) },
      'unusable event list response: pagination.total: expected an integer, got 1.5',
    ],
  ];
  it.each(unusable)('throws ResponseShapeError for %s', (_name, body, message) => {
    expect(() => parseEventList(body, { provider: 'polymarket' })).toThrow(ResponseShapeError);
    expect(() => parseEventList(body, { provider: 'polymarket' })).toThrow(message);
  });
});

describe('parseEventArray (search, suggested)', () => {
  it('parses { data } without pagination, provider from context', () => {
    const result = parseEventArray({ data: [specEvent(), { eventId: 'X' }, { eventId: 7 }] }, { provider: null });
    expect(result.events[0]?.ok && result.events[0].value.provider).toBeNull();
    // An event with nothing but its id is stored, its gaps tagged; one without a readable id is not.
    expect(result.events[1]?.ok && [result.events[1].value.eventId, result.events[1].value.drift.includes(DRIFT.missingSeries)]).toEqual([
      'X',
      true,
    ]);
    expect(result.events[2]?.ok === false && result.events[2].rejection).toMatchObject({
      entityId: null,
      reason: 'eventId: expected string, got 7',
    });
  });

  it('search: extra events and a pagination beside data are read, markets: [] kept as an empty list', () => {
    const data = Array.from({ length: 10 }, (_, i) => liveEvent({ eventId: `POLY-${i}`, markets: [] }));
    const result = parseEventArray({ data, pagination: specPagination({ end: 10, total: 91 }) }, { provider: 'polymarket' });
    expect(result.events).toHaveLength(10);
    expect(result.events.filter((e) => !(e.ok && Array.isArray(e.value.markets) && e.value.markets.length === 0))).toEqual([]);
  });

  it('a wire provider beats the null context', () => {
    const result = parseEventArray({ data: [specEvent({ provider: 'kalshi' })] }, { provider: null });
    expect(result.events[0]?.ok && result.events[0].value.provider).toBe('kalshi');
  });

  it('throws on a missing data array', () => {
    expect(() => parseEventArray({ events: [] }, { provider: null })).toThrow('unusable event array response: data: required');
  });
});

describe('parseMarketList', () => {
  it('keeps siblings, sets eventId from context, returns pagination', () => {
    const result = parseMarketList(
      {
        data: [
          specMarket(),
          specMarket({ marketId: 'POLY-BAD', settlementTime: -1 }),
          liveMarket({ marketId: 'POLY-2', status: 'cancelled' }),
        ],
        pagination: specPagination({ hasNext: false }),
      },
      { eventId: 'POLY-30615' },
    );
    expect(result.markets.map((m) => (m.ok ? `${m.value.marketId}@${m.value.eventId}` : m.rejection.reason))).toEqual([
      'POLY-558936@POLY-30615',
      'settlementTime: must be >= 0, got -1',
      'POLY-2@POLY-30615',
    ]);
    expect(result.pagination.hasNext).toBe(false);
  });

  it('throws ResponseShapeError without pagination', () => {
    expect(() => parseMarketList({ data: [] }, { eventId: 'E' })).toThrow('unusable market list response: pagination: required');
  });
});
