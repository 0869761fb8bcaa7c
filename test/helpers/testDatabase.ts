import { randomBytes } from 'node:crypto';

import postgres from 'postgres';
import { afterAll, inject } from 'vitest';

import { connect, type Database } from '../../src/db/connect.js';
import { withDatabase } from '../setup/globalSetup.js';
import { resetCitusDatabase } from './citusDatabase.js';

export interface TestDatabase extends Database {
  url: string;
  name: string;
}

const runId = () => `${inject('pgTemplate').replace('pi_template_', '')}_${randomBytes(4).toString('hex')}`;

/** Under `npm run test:citus`: whether this file already has the cluster's database. */
let clusterTaken = false;

/**
 * A fresh database for this test file: a clone of the migrated template, or empty when `migrated: false`.
 * Under `npm run test:citus`, the file's first migrated database is the cluster's one database,
 * emptied, migrated and laid out; any other (a second one, `plain: true`, an unmigrated one) is
 * on the single Postgres, as in `npm test`.
 */
export async function createTestDatabase(options: { migrated?: boolean; plain?: boolean } = {}): Promise<TestDatabase> {
  const citusUrl = inject('citusUrl');
  if (citusUrl !== undefined && !clusterTaken && options.plain !== true && options.migrated !== false) {
    clusterTaken = true;
    await resetCitusDatabase(citusUrl);
    const database = connect(citusUrl, { max: 4 });
    return { ...database, url: citusUrl, name: new URL(citusUrl).pathname.slice(1) };
  }
  const adminUrl = inject('pgAdminUrl');
  const name = `pi_test_${runId()}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    if (options.migrated === false) await admin`create database ${admin(name)}`;
    else await admin`create database ${admin(name)} template ${admin(inject('pgTemplate'))}`;
  } finally {
    await admin.end();
  }
  const url = withDatabase(adminUrl, name);
  const database = connect(url, { max: 4 });
  return {
    ...database,
    url,
    name,
    close: async () => {
      await database.close();
      const drop = postgres(adminUrl, { max: 1, onnotice: () => {} });
      await drop`drop database if exists ${drop(name)} with (force)`.finally(() => drop.end());
    },
  };
}

/** Creates a database before the file's tests and drops it after them. */
export async function useTestDatabase(options: { migrated?: boolean; plain?: boolean } = {}): Promise<TestDatabase> {
  const database = await createTestDatabase(options);
  afterAll(() => database.close());
  return database;
}
