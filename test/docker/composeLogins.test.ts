import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';

import { migrate } from '../../src/db/migrate.js';
import { loginStanding } from '../helpers/loginStanding.js';
import { createTestDatabase } from '../helpers/testDatabase.js';
import { withDatabase } from '../setup/globalSetup.js';

/** docker-compose.yml's ingester: its own login, no superuser, that migrates and owns the database; a volume for exports. */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SCRIPT = `${ROOT}docker/postgres-init/05-ingester-owner.sh`;
const PASSWORD = 'ingester-test-3f8a61';
const db = await createTestDatabase({ migrated: false });
const admin = new URL(inject('pgAdminUrl'));

afterAll(async () => {
  await db.close();
  const sql = postgres(inject('pgAdminUrl'), { max: 1, onnotice: () => {} });
  try {
    // The role is the cluster's: dropped once no test database holds anything of it.
    await sql`drop role if exists ingester`.catch(() => {});
  } finally {
    await sql.end();
  }
});

/** Runs the init script as the postgres image does on a new volume: POSTGRES_USER, POSTGRES_DB and psql on PATH. */
function runInitScript(): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(
      'bash',
      [SCRIPT],
      {
        env: {
          PATH: process.env.PATH ?? '',
          PGHOST: admin.hostname,
          PGPORT: admin.port || '5432',
          PGPASSWORD: decodeURIComponent(admin.password),
          POSTGRES_USER: decodeURIComponent(admin.username) || 'postgres',
          POSTGRES_DB: db.name,
          INGESTER_DB_PASSWORD: PASSWORD,
        },
      },
      (error, stdout, stderr) => (error ? reject(new Error(`${SCRIPT} failed: ${stderr}`, { cause: error })) : resolve(stdout)),
    ),
  );
}

describe('compose: the ingester logs in as a non-superuser owner', () => {
  it('compose connects the ingester as `ingester`, not as the image’s superuser, and gives it an exports volume', () => {
    const compose = readFileSync(`${ROOT}docker-compose.yml`, 'utf8');
    const superuser = /POSTGRES_USER: (\w+)/.exec(compose)![1];
    const url = /DATABASE_URL: postgres:\/\/(\w+):/.exec(compose)![1];
    expect(url).toBe('ingester');
    expect(url).not.toBe(superuser);
    expect(compose).toMatch(/volumes:\n(\s+#.*\n)*\s+- exports:\/exports/);
    expect(readFileSync(`${ROOT}Dockerfile`, 'utf8')).toMatch(/mkdir \/exports && chown node:node \/exports/);
  });

  it('the init script makes that login, which is no superuser, owns the database and can migrate it', async () => {
    await runInitScript();
    // Run again (a volume of an earlier version, by hand): nothing changes, nothing fails.
    await runInitScript();
    const url = withDatabase(inject('pgAdminUrl'), db.name).replace(/\/\/[^@]*@/, `//ingester:${PASSWORD}@`);
    const result = await migrate(url);
    expect(result.applied).toBeGreaterThan(0);
    expect(await loginStanding(url, 'PG_VERSION')).toEqual({
      super: false,
      owns: true,
      readFileError: expect.stringMatching(/permission denied/),
    });
  }, 120_000);
});
