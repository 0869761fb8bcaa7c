import { describe, expect, it } from 'vitest';

import { runCli } from '../helpers/runCli.js';
import { useTestDatabase } from '../helpers/testDatabase.js';

describe('cli migrate', () => {
  it('migrates an empty database, then reports it up to date', async () => {
    const db = await useTestDatabase({ migrated: false });
    const first = await runCli(['migrate'], { DATABASE_URL: db.url });
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(first.stdout).toMatch(/^Applied \d+ migration\(s\)/);
    const second = await runCli(['migrate'], { DATABASE_URL: db.url });
    expect(second.stdout).toMatch(/^Database is up to date/);
  });

  it('takes a longer statement timeout for a large database, and names a bad one', async () => {
    const db = await useTestDatabase({ migrated: false });
    expect(await runCli(['migrate', '--statement-timeout-min', '120'], { DATABASE_URL: db.url })).toMatchObject({ code: 0, stderr: '' });
    const bad = await runCli(['migrate', '--statement-timeout-min', '0'], { DATABASE_URL: db.url });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--statement-timeout-min.*Must be an integer 1\.\.1440/);
  });

  it('names a bad configuration value and exits 2 without a stack trace', async () => {
    const result = await runCli(['migrate'], { PREDICTION_RATE_LIMIT_RPM: 'abc' });
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe(
      'prediction-ingest: Invalid configuration: PREDICTION_RATE_LIMIT_RPM must be a positive integer, got "abc"',
    );
  });

  it('exits 4 with a one-line message when the database is unreachable', async () => {
    const result = await runCli(['migrate'], { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none' });
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/^prediction-ingest: Database unreachable: .*ECONNREFUSED/);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('exits 2 on an unknown command', async () => {
    const result = await runCli(['no-such-command'], {});
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("unknown command 'no-such-command'");
  });
});

describe('cli exploration commands', () => {
  it('reject a bound violated before anything is sent, naming the rule, even without a key', async () => {
    const result = await runCli(['search', 'x', '--limit', '25'], { PREDICTION_API_URL: 'http://127.0.0.1:1/prediction/v1' });
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe(
      'prediction-ingest: Invalid request to GET /events/search: limit must be an integer from 1 to 20, got 25',
    );
  });
});
