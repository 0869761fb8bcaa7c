import { describe, expect, it } from 'vitest';

import { runCli } from '../helpers/runCli.js';
import { useTestDatabase } from '../helpers/testDatabase.js';

/** What `status` prints of strings and times the database holds, whoever wrote them. */
const db = await useTestDatabase();
const ESC = '\u001b';

describe('status against odd stored values', () => {
  it('prints no terminal escape from the database, and calls a run stamped infinity unhealthy in text and JSON alike', async () => {
    await db.sql`insert into prediction.ingest_runs (job, status, started_at, finished_at)
                 values (${`crawl${ESC}]0;owned${ESC}\\`}, 'succeeded', now(), now()),
                        ('sync', 'succeeded', 'infinity', 'infinity')`;
    const text = await runCli(['status'], { DATABASE_URL: db.url });
    expect(text.stderr).not.toMatch(/RangeError|Invalid time value/);
    expect(text.code).toBe(7);
    expect(text.stdout + text.stderr).not.toContain(ESC);
    expect(text.stdout).toContain('not a finite time');
    expect(text.stdout).toMatch(/sync: run \d+ has a start or end time that is not a finite instant/);
    const json = await runCli(['status', '--json'], { DATABASE_URL: db.url });
    expect(json.code).toBe(7);
    const report = JSON.parse(json.stdout) as { verdict: string; problems: { kind: string }[] };
    expect(report.verdict).toBe('unhealthy');
    expect(report.problems.map((p) => p.kind)).toContain('run_time_not_finite');
  }, 120_000);
});
