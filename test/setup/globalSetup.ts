import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import postgres from 'postgres';
import type { TestProject } from 'vitest/node';

import { parseConfig } from '../../src/config.js';
import { migrate } from '../../src/db/migrate.js';
import { startTestPostgres } from './startTestPostgres.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** URL of a database on the test server with the right to CREATE DATABASE. */
    pgAdminUrl: string;
    /** Migrated template database that every test file clones. */
    pgTemplate: string;
    /**
     * `npm run test:citus` only: the Citus coordinator's database (test/setup/citusGlobalSetup.ts).
     * When set, useTestDatabase gives each file that database, emptied, migrated and laid out.
     */
    citusUrl?: string;
  }
}

/**
 * Starts (or attaches to) one Postgres for the whole run and migrates a template database once;
 * each test file then clones it (see test/helpers/testDatabase.ts), which costs milliseconds.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // The CLI tests spawn the compiled CLI (test/helpers/cliEntry.ts): build what changed first.
  execFileSync(process.execPath, [fileURLToPath(new URL('../../scripts/build.mjs', import.meta.url))], { stdio: 'inherit' });
  const server = await startTestPostgres(parseConfig(process.env).testDatabaseUrl);
  const template = `pi_template_${process.pid}`;
  const admin = postgres(server.adminUrl, { max: 1, onnotice: () => {} });
  await admin`drop database if exists ${admin(template)}`;
  await admin`create database ${admin(template)}`;
  await migrate(withDatabase(server.adminUrl, template));
  project.provide('pgAdminUrl', server.adminUrl);
  project.provide('pgTemplate', template);
  process.stderr.write(`[test] Postgres from ${server.kind}\n`);

  return async () => {
    // Test files drop their own databases; this removes what a crashed worker left behind.
    const leftovers = await admin<{ datname: string }[]>`
      select datname from pg_database where datname like ${`pi_test_${process.pid}_%`} or datname = ${template}`;
    for (const { datname } of leftovers) await admin`drop database if exists ${admin(datname)} with (force)`;
    await admin.end();
    await server.stop();
  };
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}
