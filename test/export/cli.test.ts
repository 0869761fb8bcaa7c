import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';

import { runCli } from '../helpers/runCli.js';
import { spawnCli } from '../helpers/spawnCli.js';
import { createTestDatabase, useTestDatabase } from '../helpers/testDatabase.js';
import { lockWaiters } from './exportHelpers.js';

const db = await useTestDatabase();
const root = mkdtempSync(join(tmpdir(), 'export-cli-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('cli export', () => {
  it('names an unknown table and exits 2, before touching any database', async () => {
    const result = await runCli(['export', '--out', root, '--tables', 'price_history,prices,levels'], {
      DATABASE_URL: 'postgres://x@127.0.0.1:1/none',
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("option '--tables <list>' argument 'price_history,prices,levels' is invalid");
    expect(result.stderr).toContain("Unknown: 'prices'.");
  });

  it('names a bad --since or --until and exits 2', async () => {
    const since = await runCli(['export', '--out', root, '--since', '2026-01-15T12:00:00'], {});
    expect(since.code).toBe(2);
    expect(since.stderr).toMatch(
      /option '--since <time>' argument '2026-01-15T12:00:00' is invalid\. Must be a duration before now \(30m, 24h, 7d\) or a UTC date or time/,
    );
    const until = await runCli(['export', '--out', root, '--until', '2026-02-30'], {});
    expect(until.code).toBe(2);
    expect(until.stderr).toContain("option '--until <time>' argument '2026-02-30' is invalid");
    const order = await runCli(['export', '--out', root, '--since', '2026-01-02', '--until', '2026-01-01'], {
      DATABASE_URL: 'postgres://x@127.0.0.1:1/none',
    });
    expect(order.code).toBe(2);
    expect(order.stderr.trim()).toBe(
      'prediction-ingest: --since (2026-01-02T00:00:00.000Z) must be before --until (2026-01-01T00:00:00.000Z)',
    );
  });

  it('names an --out that is a file and exits 2', async () => {
    const file = join(root, 'a-file');
    writeFileSync(file, 'not a directory');
    const result = await runCli(['export', '--out', file], {});
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`--out ${file} exists and is not a directory`);
  });

  it('refuses a database never migrated, without migrating it, says how to get data, and exits 1', async () => {
    const bare = await createTestDatabase({ migrated: false });
    try {
      const result = await runCli(['export', '--out', join(root, 'bare')], { DATABASE_URL: bare.url });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(
        'the database holds no data: it was never migrated, nothing has run against it; to get data, run `npm run demo`',
      );
      expect(await bare.sql`select 1 from pg_namespace where nspname = 'prediction'`).toEqual([]);
    } finally {
      await bare.close();
    }
  });

  it('requires --out', async () => {
    const result = await runCli(['export'], {});
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("required option '--out <dir>' not specified");
  });

  it('fails on a database without history, saying how to get data; a range without history is an answer, said', async () => {
    const out = join(root, 'empty');
    const empty = await runCli(['export', '--out', out], { DATABASE_URL: db.url });
    expect(empty.code).toBe(1);
    expect(empty.stdout).toContain('  price_history: 0 file(s) written (0 rows), 0 unchanged\n');
    expect(empty.stderr).toContain(
      'prediction-ingest: nothing to export: the database holds no history (no data file written); to get data, run `npm run demo`',
    );
    const range = await runCli(['export', '--out', out, '--since', '7d'], { DATABASE_URL: db.url });
    expect(range.code).toBe(0);
    expect(range.stderr).toBe(
      'prediction-ingest: the database holds no history in the range of --since and --until: no data file written\n',
    );
  });

  it('exports into a new directory, prints a summary, and draws no progress bar when stderr is not a terminal', async () => {
    await db.sql`
      insert into prediction.events (event_id, provider, raw, first_seen_at, last_seen_at, changed_at)
      values ('E1', 'kalshi', '{}', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')`;
    const out = join(root, 'new', 'dir');
    const result = await runCli(['export', '--out', out, '--tables', 'events,price_history'], { DATABASE_URL: db.url });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toBe(
      `export into ${out}: manifest ${join(out, 'manifest.json')}\n` +
        '  events: 1 file(s) written (1 rows), 0 unchanged\n' +
        '  price_history: 0 file(s) written (0 rows), 0 unchanged\n',
    );
    expect(readdirSync(out).sort()).toEqual(['events', 'manifest.json']);
    expect(existsSync(join(out, 'events', 'date=2026-01-01', 'part-0.parquet'))).toBe(true);
    expect(JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')).tables.events.rows).toBe(1);
  });

  it('takes a directory reached through a symbolic link as the directory itself', async () => {
    const real = join(root, 'real');
    mkdirSync(real);
    symlinkSync(real, join(root, 'link'));
    const viaLink = await runCli(['export', '--out', join(root, 'link'), '--tables', 'events'], { DATABASE_URL: db.url });
    expect(viaLink).toMatchObject({ code: 0 });
    expect(viaLink.stdout).toContain(`export into ${real}:`);
    const direct = await runCli(['export', '--out', real, '--tables', 'events'], { DATABASE_URL: db.url });
    expect(direct.stdout).toContain('  events: 0 file(s) written (0 rows), 1 unchanged');
  });

  it('ends at the first SIGTERM, whatever it waits for, with the interrupted code; the next export completes', async () => {
    const out = join(root, 'stopped');
    // With the events the test before wrote: an export that finds no history at all fails on purpose.
    // A reader holds markets, on a session without the test pool's idle timeout: the export waits
    // for it in the database, and would until its release (or the export's lock_timeout).
    const holder = postgres(db.url, { max: 1, onnotice: () => {} });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holding = holder.begin(async (tx) => {
      await tx`lock table prediction.markets in access exclusive mode`;
      locked();
      await held;
    });
    try {
      await isLocked;
      const cli = spawnCli(['export', '--out', out, '--tables', 'markets,events'], { DATABASE_URL: db.url });
      await expect.poll(() => lockWaiters(db.sql), { timeout: 60_000, interval: 50 }).toBe(1);
      cli.child.kill('SIGTERM');
      // Exits while the lock is still held and its statement still waits (until the export's
      // lock_timeout, which would also end the export, but only after the database answered).
      expect(await cli.exited).toBe(130);
      expect(await lockWaiters(db.sql)).toBe(1);
      expect(cli.stderr()).toContain('prediction-ingest: stopping the export');
      expect(cli.stderr()).toContain('prediction-ingest: export stopped by a signal; run it again to complete it');
    } finally {
      release();
      await holding;
      await holder.end();
    }
    const again = await runCli(['export', '--out', out, '--tables', 'markets,events'], { DATABASE_URL: db.url });
    expect(again.code).toBe(0);
    expect(existsSync(join(out, 'manifest.json'))).toBe(true);
  });

  it('refuses to write into a directory another export holds, and exits 1', async () => {
    const out = join(root, 'busy');
    const holder = postgres(db.url, { max: 1, onnotice: () => {} });
    try {
      // The lock is the directory's (device and inode), not its path's.
      mkdirSync(out, { recursive: true });
      const { dev, ino } = statSync(out, { bigint: true });
      await holder`select pg_advisory_lock(hashtextextended(${`prediction-ingest export ${dev}:${ino}`}, 0))`;
      const result = await runCli(['export', '--out', out], { DATABASE_URL: db.url });
      expect(result.code).toBe(1);
      expect(result.stderr.trim()).toBe(`prediction-ingest: another export is writing into ${out}`);
    } finally {
      await holder.end();
    }
  });
});
