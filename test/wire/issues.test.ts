import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { checkRecord } from '../../src/wire/checkRecord.js';
import { describeValue, expected, formatIssues, formatPath } from '../../src/wire/issues.js';
import { lenient, Unreadable } from '../../src/wire/lenient.js';
import { findHostileContent } from '../../src/wire/untrusted.js';

describe('describeValue', () => {
  it.each([
    ['halted', '"halted"'],
    [null, 'null'],
    [undefined, 'nothing'],
    [1.5, '1.5'],
    [true, 'true'],
    [[1, 2, 3], 'an array of 3 items'],
    [[1], 'an array of 1 item'],
    [{ a: 1 }, 'an object'],
    ['a\u0000b', '"a\\u0000b"'],
  ])('%j -> %s', (value, text) => {
    expect(describeValue(value)).toBe(text);
  });

  it('cuts long strings', () => {
    expect(describeValue('z'.repeat(50))).toBe(`"${'z'.repeat(40)}"… (50 characters)`);
  });
});

describe('formatPath / formatIssues', () => {
  it('joins keys and indexes, quotes odd keys', () => {
    expect(formatPath(['markets', 2, 'metadata', 'title'])).toBe('markets[2].metadata.title');
    expect(formatPath(['status'], 'markets[0]')).toBe('markets[0].status');
    expect(formatPath([], 'markets[0]')).toBe('markets[0]');
    expect(formatPath(['a b', 0])).toBe('["a b"][0]');
  });

  it('lists at most five issues', () => {
    const issues = Array.from({ length: 7 }, (_, i) => ({ path: [`f${i}`], message: 'required' }));
    expect(formatIssues(issues)).toBe('f0: required; f1: required; f2: required; f3: required; f4: required (+2 more)');
    expect(formatIssues([{ path: [], message: 'expected an object, got null' }])).toBe('expected an object, got null');
  });
});

describe('findHostileContent', () => {
  it('accepts ordinary JSON', () => {
    expect(findHostileContent({ a: [1, 'two', { b: null, c: true }] })).toBeNull();
  });

  it('reports the path of the first problem', () => {
    expect(findHostileContent({ a: [1, { b: 'x\u0000' }] })).toEqual({ path: ['a', 1, 'b'], message: 'contains a NUL character' });
    expect(findHostileContent({ ['k'.repeat(257)]: 1 })?.message).toBe('key too long: 257 characters (max 256)');
  });
});

describe('checkRecord', () => {
  const schema = z.object({ n: z.number().max(3) });
  it('returns the parsed data or a readable reason with prefix', () => {
    expect(checkRecord(schema, { n: 1, extra: 'dropped' })).toEqual({ ok: true, data: { n: 1 } });
    expect(checkRecord(schema, { n: 4 }, { prefix: 'markets[3]' })).toEqual({
      ok: false,
      hostile: false,
      reason: 'markets[3].n: must be <= 3, got 4',
    });
  });

  it('scans what it is told to scan', () => {
    const payload = { n: 1, skipped: 'x\u0000' };
    expect(checkRecord(schema, payload, { scan: { n: 1 } }).ok).toBe(true);
    expect(checkRecord(schema, payload).ok).toBe(false);
  });
});

describe('lenient', () => {
  const schema = z.object({ id: z.string(), flag: lenient(z.boolean()) });

  it('reads absent, null and well-typed values as they are', () => {
    expect(checkRecord(schema, { id: 'a' })).toEqual({ ok: true, data: { id: 'a' } });
    expect(checkRecord(schema, { id: 'a', flag: null })).toEqual({ ok: true, data: { id: 'a', flag: null } });
    expect(checkRecord(schema, { id: 'a', flag: false })).toEqual({ ok: true, data: { id: 'a', flag: false } });
  });

  it('turns a wrong-typed value into Unreadable, keeping what was sent, instead of failing', () => {
    const checked = checkRecord(schema, { id: 'a', flag: 'yes' });
    expect(checked.ok).toBe(true);
    if (!checked.ok) return;
    expect(checked.data.flag).toBeInstanceOf(Unreadable);
    expect((checked.data.flag as Unreadable).input).toBe('yes');
  });

  it('does not shield the fields that are not lenient', () => {
    expect(checkRecord(schema, { id: 1, flag: 'yes' })).toEqual({ ok: false, hostile: false, reason: 'id: expected string, got 1' });
  });
});

describe('expected', () => {
  it('names the expectation and the value, or says required when the key is absent', () => {
    const schema = z.object({ t: z.number({ error: expected('Unix seconds') }) });
    expect(checkRecord(schema, { t: 'soon' })).toEqual({ ok: false, hostile: false, reason: 't: expected Unix seconds, got "soon"' });
    expect(checkRecord(schema, {})).toEqual({ ok: false, hostile: false, reason: 't: required' });
  });
});
