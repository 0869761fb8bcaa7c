import { describe, expect, it } from 'vitest';

import { parseSince, parseTime } from '../../src/cli/parseTime.js';

const now = new Date('2026-11-27T12:00:00Z');
const DAY_MS = 86_400_000;
/** Whole days from 0001-01-01T00:00:00Z to `now`: the longest duration --since takes. */
const maxDays = Math.floor((now.getTime() - Date.parse('0001-01-01T00:00:00Z')) / DAY_MS);

describe('parseTime and parseSince', () => {
  it('takes a duration before now, and a date or time with its zone', () => {
    expect(parseSince('24h', now).toISOString()).toBe('2026-11-26T12:00:00.000Z');
    expect(parseSince('2026-01-31', now).toISOString()).toBe('2026-01-31T00:00:00.000Z');
    expect(parseSince('2026-01-31T08:00:00+02:00', now).toISOString()).toBe('2026-01-31T06:00:00.000Z');
  });

  it('takes the earliest instant Postgres reads as sent, 0001-01-01, and refuses one before it as out of range', () => {
    expect(parseSince('0001-01-01', now).toISOString()).toBe('0001-01-01T00:00:00.000Z');
    expect(() => parseSince('0000-12-31', now)).toThrow('Must not be before 0001-01-01T00:00:00Z');
    expect(parseSince(`${maxDays}d`, now).getTime()).toBeGreaterThanOrEqual(Date.parse('0001-01-01T00:00:00Z'));
    expect(() => parseSince(`${maxDays + 1}d`, now)).toThrow(`a duration of at most ${maxDays}d`);
  });

  it('calls a duration too long for any date out of range, not a bad format', () => {
    expect(() => parseSince('100000000000d', now)).toThrow('Must not be before');
  });

  it('takes the forms every time option takes: a space or a T, a zone with or without its colon, no seconds', () => {
    expect(parseTime('7d', now).toISOString()).toBe('2026-11-20T12:00:00.000Z');
    expect(parseTime('30m', now).toISOString()).toBe('2026-11-27T11:30:00.000Z');
    expect(parseTime(' 2026-01-15 12:00Z ', now).toISOString()).toBe('2026-01-15T12:00:00.000Z');
    expect(parseTime('2026-01-15T12:00:00+0200', now).toISOString()).toBe('2026-01-15T10:00:00.000Z');
    // An --until may lie ahead; a --since may not.
    expect(parseTime('2026-12-01', now).toISOString()).toBe('2026-12-01T00:00:00.000Z');
    for (const bad of ['2026-01-15T12:00:00', 'yesterday', '2026-02-30', '2026-02-30T00:00:00Z', '1768478400', '', '7 days']) {
      expect(() => parseTime(bad, now), bad).toThrow('Must be a duration before now (30m, 24h, 7d) or a UTC date or time');
    }
    expect(() => parseTime('9999-12-31', now)).toThrow('Must be before 9999-12-31');
  });

  it('refuses a bad format, an impossible date and a time in the future', () => {
    expect(() => parseSince('yesterday', now)).toThrow('Must be a duration before now');
    expect(() => parseSince('2026-13-01', now)).toThrow('Must be a duration before now');
    expect(() => parseSince('2026-01-31T08:00:00', now)).toThrow('Must be a duration before now');
    expect(() => parseSince('2026-12-01', now)).toThrow('Must not be in the future');
  });
});
