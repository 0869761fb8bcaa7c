import { randomBytes } from 'node:crypto';
import type postgres from 'postgres';

export interface ReaderLogin {
  /** The login's name, unique on the server (roles are cluster-wide; test files run in parallel). */
  name: string;
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
  await adminSql`create role ${adminSql(name)} login in role prediction_reader`;
  return {
    name,
    urlFor(databaseUrl) {
      const u = new URL(databaseUrl);
      u.username = name;
      u.password = '';
      return u.toString();
    },
    async drop() {
      await adminSql`select pg_terminate_backend(pid) from pg_stat_activity where usename = ${name}`;
      await adminSql`drop role if exists ${adminSql(name)}`;
    },
  };
}
