import { randomBytes } from 'node:crypto';

import type postgres from 'postgres';

export interface ReaderLogin {
  /** The login's name, unique on the server (roles are cluster-wide; test files run in parallel). */
  name: string;
  /** Its password: servers that ask for one (the embedded Postgres) refuse an empty one. */
  password: string;
  /** `databaseUrl` with this login instead of its user. */
  urlFor(databaseUrl: string): string;
  /** Ends the login's sessions and drops it. */
  drop(): Promise<void>;
}

/**
 * A login granted prediction_reader and nothing else, as a BI tool's would be (NOLOGIN roles
 * cannot connect). `adminSql` must be a superuser session; the login is dropped by `drop()`.
 */
export async function createReaderLogin(adminSql: postgres.Sql): Promise<ReaderLogin> {
  const name = `pi_reader_${randomBytes(5).toString('hex')}`;
  const password = randomBytes(12).toString('hex');
  // A password cannot be a bound parameter in DDL; it is hex, so quoting it is safe.
  await adminSql.unsafe(`create role "${name}" login password '${password}' in role prediction_reader`);
  return {
    name,
    password,
    urlFor(databaseUrl) {
      const u = new URL(databaseUrl);
      u.username = name;
      u.password = password;
      return u.toString();
    },
    async drop() {
      await adminSql`select pg_terminate_backend(pid) from pg_stat_activity where usename = ${name}`;
      await adminSql`drop role if exists ${adminSql(name)}`;
    },
  };
}
