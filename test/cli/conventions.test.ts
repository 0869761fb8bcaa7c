import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { ConfigError, parseConfig, withEnvFile } from '../../src/config.js';
import { runCli } from '../helpers/runCli.js';
import { useTestDatabase } from '../helpers/testDatabase.js';

const db = await useTestDatabase();
const dir = mkdtempSync(join(tmpdir(), 'conventions-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

describe('the conventions of a command-line tool', () => {
  it('--version prints the version of package.json and exits 0', async () => {
    const result = await runCli(['--version'], {});
    expect(result).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  it('reads its settings file, and a missing database is said as such (exit 4)', async () => {
    const missing = new URL(db.url);
    missing.pathname = '/no_such_database_here';
    const file = join(dir, 'settings.env');
    writeFileSync(file, `# the database to read\nDATABASE_URL="${missing.href}"\n`);
    const result = await runCli(['status'], { PREDICTION_ENV_FILE: file });
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(
      /^prediction-ingest: Database does not exist: .*no_such_database_here.* \(SQLSTATE 3D000\): create it \(createdb\), or correct the database name/,
    );
  });

  it('lets the environment win over the settings file, and names a settings file that is missing', () => {
    const file = join(dir, 'levels.env');
    writeFileSync(file, 'LOG_LEVEL=debug\nOPS_PORT=1234\nexport_not_a_setting=1\n');
    const config = parseConfig(withEnvFile({ PREDICTION_ENV_FILE: file, LOG_LEVEL: 'warn' }));
    expect(config.logLevel).toBe('warn');
    expect(config.opsPort).toBe(1234);
    const gone = join(dir, 'gone.env');
    expect(() => withEnvFile({ PREDICTION_ENV_FILE: gone })).toThrow(ConfigError);
    expect(() => withEnvFile({ PREDICTION_ENV_FILE: gone })).toThrow(
      `the settings file PREDICTION_ENV_FILE ("${gone}") cannot be read (ENOENT)`,
    );
  });

  it('takes --since 7d wherever a time is taken', async () => {
    const before = Date.now();
    const status = await runCli(['status', '--since', '7d', '--json'], { DATABASE_URL: db.url });
    const sinceMs = Date.parse(JSON.parse(status.stdout).settings.sinceAt);
    expect(sinceMs).toBeGreaterThanOrEqual(before - 7 * 86_400_000);
    expect(sinceMs).toBeLessThanOrEqual(Date.now() - 7 * 86_400_000);
    const exported = await runCli(['export', '--out', join(dir, 'out'), '--since', '7d', '--until', '0d', '--tables', 'events'], {
      DATABASE_URL: db.url,
    });
    expect({ code: exported.code, stderr: exported.stderr }).toEqual({
      code: 0,
      stderr: 'prediction-ingest: the database holds no history in the range of --since and --until: no data file written\n',
    });
    const badBackfill = await runCli(['backfill', '--since', '7 days'], {});
    expect(badBackfill.code).toBe(2);
    expect(badBackfill.stderr).toContain('--since "7 days": Must be a duration before now (30m, 24h, 7d) or a UTC date or time');
  });
});
