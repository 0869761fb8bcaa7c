import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { listOf } from '../../src/cli/optionParsers.js';
import { planPartitions, type RecordedPartition } from '../../src/export/planPartitions.js';
import { type CsvChunk, splitCsvChunks } from '../../src/export/splitCsvChunks.js';
import { daysOverlapping } from '../../src/export/utcDays.js';

const root = mkdtempSync(join(tmpdir(), 'export-pieces-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('planPartitions', () => {
  const recorded = (day: string, rows: number, fileBytes = 100): [string, RecordedPartition] => [
    day,
    { day, rows, fileBytes, minAt: null, maxAt: null },
  ];
  const base = {
    recorded: new Map([recorded('2026-01-01', 5), recorded('2026-01-02', 5), recorded('2026-01-03', 5), recorded('2026-01-04', 5)]),
    fileBytes: () => 100,
    range: { fromDay: null, toDay: null },
    carryForward: false,
    archivedBefore: null,
  };
  const days = (changed: readonly string[], rows = 5) =>
    ['2026-01-01', '2026-01-02', '2026-01-03', '2026-01-04'].map((day) => ({ day, rows, changed: changed.includes(day) }));

  it('rewrites the changed days only', () => {
    const plan = planPartitions({ ...base, current: days(['2026-01-02']) });
    expect(plan.write.map((d) => d.day)).toEqual(['2026-01-02']);
    expect(plan.unchanged).toEqual(['2026-01-01', '2026-01-03', '2026-01-04']);
  });

  it('rewrites a day never recorded, one whose file is missing or another size, and one whose row count moved', () => {
    const plan = planPartitions({
      ...base,
      recorded: new Map([recorded('2026-01-01', 5), recorded('2026-01-02', 5, 99), recorded('2026-01-04', 4)]),
      fileBytes: (day) => (day === '2026-01-01' ? 100 : day === '2026-01-02' ? 100 : 0),
      current: days([]),
    });
    expect(plan.write.map((d) => d.day)).toEqual(['2026-01-02', '2026-01-03', '2026-01-04']);
  });

  it('carries a change into every later day, but not a day merely never exported', () => {
    expect(
      planPartitions({ ...base, carryForward: true, archivedBefore: null, current: days(['2026-01-02']) }).write.map((d) => d.day),
    ).toEqual(['2026-01-02', '2026-01-03', '2026-01-04']);
    const missing = planPartitions({
      ...base,
      carryForward: true,
      archivedBefore: null,
      recorded: new Map([recorded('2026-01-02', 5)]),
      current: days([]),
    });
    expect(missing.write.map((d) => d.day)).toEqual(['2026-01-01', '2026-01-03', '2026-01-04']);
  });

  it('keeps to the range, and removes recorded days of it that hold no row any more', () => {
    const plan = planPartitions({
      ...base,
      range: { fromDay: '2026-01-02', toDay: '2026-01-04' },
      current: days(['2026-01-01', '2026-01-02']).filter((d) => d.day !== '2026-01-03'),
    });
    expect(plan.write.map((d) => d.day)).toEqual(['2026-01-02']);
    expect(plan.remove).toEqual(['2026-01-03']);
    expect(plan.unchanged).toEqual([]);
  });

  it('drops a file gone that it cannot write again (out of the range, or dropped by retention), and keeps one of another size', () => {
    const plan = planPartitions({
      ...base,
      recorded: new Map([
        recorded('2026-01-01', 5),
        recorded('2026-01-02', 5),
        recorded('2026-01-03', 5),
        recorded('2026-01-04', 5),
        recorded('2026-01-05', 5),
        recorded('2026-01-06', 5),
        recorded('2026-01-07', 0, 0),
      ]),
      // Gone: 01-01 (retention dropped its rows) and 01-05 (out of the range). Another size than
      // recorded, as an export stopped before its record leaves it: 01-02 (dropped) and 01-06 (out
      // of the range). 01-07 had no row, so no file.
      fileBytes: (day) => ({ '2026-01-02': 120, '2026-01-03': 100, '2026-01-04': 100, '2026-01-06': 80 })[day] ?? 0,
      range: { fromDay: null, toDay: '2026-01-04' },
      archivedBefore: '2026-01-03',
      current: days([]).filter((d) => d.day === '2026-01-03'),
    });
    expect(plan.remove).toEqual(['2026-01-01', '2026-01-05']);
    expect(plan.archived).toEqual(['2026-01-02']);
    expect(plan.unchanged).toEqual(['2026-01-03']);
    expect(plan.write).toEqual([]);
  });
});

describe('splitCsvChunks', () => {
  /** Feeds `text` in pieces of `size` bytes and returns the chunks with their contents. */
  async function split(text: string, size: number, chunkBytes: number) {
    const bytes = Buffer.from(text);
    async function* pieces() {
      for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
    }
    const dir = mkdtempSync(join(root, 'split-'));
    const chunks: (CsvChunk & { text: string })[] = [];
    let records = 0;
    const result = await splitCsvChunks(pieces(), {
      fileFor: (i) => join(dir, `c${i}.csv`),
      chunkBytes,
      onRecords: (n) => (records += n),
      load: async (chunk) => void chunks.push({ ...chunk, text: readFileSync(chunk.file, 'utf8') }),
    });
    return { chunks, result, records };
  }

  const csv =
    '2026-01-01,a,"one ""quoted"", with\nline breaks\r\n"\n' +
    '2026-01-01,b,plain\n' +
    '2026-01-02,c,"2026-01-03,not a new record\n2026-01-03,nor this"\n' +
    '2026-01-02,d,"é 😀"\n' +
    '2026-01-03,e,\n';

  it('cuts at the records where the day changes, whatever the pieces the stream comes in', async () => {
    for (const size of [1, 2, 3, 7, 11, 64, 10_000]) {
      const { chunks, result, records } = await split(csv, size, 1 << 20);
      expect(
        chunks.map((c) => ({ day: c.day, endsDay: c.endsDay, records: c.records, hasQuotes: c.hasQuotes })),
        `pieces of ${size}`,
      ).toEqual([
        { day: '2026-01-01', endsDay: true, records: 2, hasQuotes: true },
        { day: '2026-01-02', endsDay: true, records: 2, hasQuotes: true },
        { day: '2026-01-03', endsDay: true, records: 1, hasQuotes: false },
      ]);
      expect(chunks.map((c) => c.text).join('')).toBe(csv);
      expect(chunks[0]!.maxRecordBytes).toBe(Buffer.byteLength('2026-01-01,a,"one ""quoted"", with\nline breaks\r\n"\n'));
      expect(result).toEqual({ records: 5, chunks: 3 });
      expect(records).toBe(5);
    }
  });

  it('cuts a large day into several chunks, the last one ending it', async () => {
    const day = Array.from({ length: 10 }, (_, i) => `2026-01-05,${i},xxxxxxxxxx\n`).join('');
    const { chunks } = await split(`${day}2026-01-06,z,y\n`, 5, 50);
    expect(chunks.map((c) => [c.day, c.endsDay, c.records])).toEqual([
      ['2026-01-05', false, 3],
      ['2026-01-05', false, 3],
      ['2026-01-05', false, 3],
      ['2026-01-05', true, 1],
      ['2026-01-06', true, 1],
    ]);
    expect(chunks.map((c) => c.text).join('')).toBe(`${day}2026-01-06,z,y\n`);
  });

  it('refuses a stream that ends inside a record', async () => {
    await expect(split('2026-01-01,a,"open quote\n', 4, 1 << 20)).rejects.toThrow(/ended inside a record/);
  });
});

describe('the range of days', () => {
  it('is the whole UTC days that overlap [since, until)', () => {
    expect(daysOverlapping(new Date('2026-01-15T12:00:00Z'), new Date('2026-01-17T00:00:00Z'))).toEqual({
      fromDay: '2026-01-15',
      toDay: '2026-01-17',
    });
    expect(daysOverlapping(new Date('2026-01-15T00:00:00Z'), new Date('2026-01-17T00:00:00.001Z'))).toEqual({
      fromDay: '2026-01-15',
      toDay: '2026-01-18',
    });
    expect(daysOverlapping(undefined, undefined)).toEqual({ fromDay: null, toDay: null });
  });
});

describe('option parsers', () => {
  it('listOf names the unknown items', () => {
    expect(() => listOf(['a', 'b'])('a,c,d')).toThrow("Must be a comma-separated list of a, b. Unknown: 'c', 'd'.");
    expect(listOf(['a', 'b'])(' b , a ')).toEqual(['b', 'a']);
  });
});
