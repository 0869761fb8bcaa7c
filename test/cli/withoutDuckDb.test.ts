import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { spawnCli } from '../helpers/spawnCli.js';
import { useTestDatabase } from '../helpers/testDatabase.js';

const WITHOUT_DUCKDB = ['--import', fileURLToPath(new URL('../helpers/withoutDuckDb.mjs', import.meta.url))];

/** Runs the CLI where @duckdb/* cannot be loaded, as in an image installed without optional dependencies. */
async function run(args: string[], env: Record<string, string> = {}) {
  const cli = spawnCli(args, env, { nodeArgs: WITHOUT_DUCKDB });
  const code = await cli.exited;
  return { code, stdout: cli.stdout(), stderr: cli.stderr() };
}

describe('without DuckDB', () => {
  it('every command but export runs: DuckDB is loaded by the export alone', async () => {
    const help = await run(['--help']);
    expect(help).toMatchObject({ code: 0, stderr: '' });
    expect(help.stdout).toMatch(/Usage:/);
    const db = await useTestDatabase({ migrated: false });
    expect(await run(['migrate'], { DATABASE_URL: db.url })).toMatchObject({ code: 0, stderr: '' });
  });

  it('export says what is missing, and exits 1', async () => {
    const db = await useTestDatabase();
    const out = await mkdtemp(join(tmpdir(), 'no-duckdb-'));
    const result = await run(['export', '--out', join(out, 'export')], { DATABASE_URL: db.url }).finally(() =>
      rm(out, { recursive: true, force: true }),
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/Cannot find module @duckdb\/node-api/);
  });
});
