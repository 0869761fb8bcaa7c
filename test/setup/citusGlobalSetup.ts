import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import postgres from 'postgres';
import type { TestProject } from 'vitest/node';

import { parseConfig } from '../../src/config.js';
import setupPostgres from './globalSetup.js';

const run = promisify(execFile);
const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * `npm run test:citus`: the single Postgres of the ordinary suite (for the files that compare with
 * it), and a Citus cluster: CITUS_TEST_URL's, or one started with CITUS_CLUSTER_SCRIPT (by default
 * ../shared/tools/citus/cluster.sh beside the repository) and stopped at the end.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const config = parseConfig(process.env);
  const stopPostgres = await setupPostgres(project);
  let url = config.citusTestUrl;
  let stopCluster = async () => {};
  if (url === undefined) {
    const script = isAbsolute(config.citusClusterScript) ? config.citusClusterScript : resolve(REPO_ROOT, config.citusClusterScript);
    if (!existsSync(script)) {
      throw new Error(
        `CITUS_CLUSTER_SCRIPT: ${script} does not exist; set it to the cluster script, or CITUS_TEST_URL to a running coordinator`,
      );
    }
    // Through bash: a copied script may have lost its execute bit.
    const started = await run('bash', [script, 'start'], { timeout: 180_000 });
    url = started.stdout.trim().split('\n').at(-1)!;
    stopCluster = async () => void (await run('bash', [script, 'stop'], { timeout: 60_000 }));
  }
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [row] = await sql<{ workers: number }[]>`select count(*)::int as workers from pg_dist_node where groupid <> 0 and isactive`;
    if (!row || row.workers < 2)
      throw new Error(`the Citus coordinator at ${new URL(url).host} has ${row?.workers ?? 0} active workers; the tests need 2`);
  } finally {
    await sql.end();
  }
  project.provide('citusUrl', url);
  process.stderr.write(`[test] Citus coordinator at ${new URL(url).host}\n`);
  return async () => {
    await stopCluster();
    await stopPostgres();
  };
}
