import { mkdtempSync, readFileSync, rmSync, statSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { APP_ROLE, type EmbeddedDatabase, ForeignServerError, startEmbeddedPostgres } from '../../src/db/embedded.js';
import { CREDENTIALS_FILE } from '../../src/db/embeddedCredentials.js';
import { freePort } from '../helpers/freePort.js';
import { loginStanding } from '../helpers/loginStanding.js';

/** The embedded Postgres as another local user meets it: no known password, no secret in its environment. */
const dataDir = mkdtempSync(path.join(tmpdir(), 'embedded-private-'));
let port: number;
let server: EmbeddedDatabase | undefined;
const KEY = 'embedded-test-key-7d41c9';

async function canLogIn(url: string): Promise<string> {
  const sql = postgres(url, { max: 1, connect_timeout: 5, onnotice: () => {} });
  try {
    await sql`select 1`;
    return 'yes';
  } catch (error) {
    return String((error as Error).message);
  } finally {
    await sql.end({ timeout: 1 });
  }
}

const credentials = () =>
  JSON.parse(readFileSync(path.join(dataDir, CREDENTIALS_FILE), 'utf8')) as { superuserPassword: string; appPassword: string };
const start = async () => {
  const previous = process.env.PREDICTION_API_KEY;
  process.env.PREDICTION_API_KEY = KEY;
  try {
    return await startEmbeddedPostgres({ dataDir, port });
  } finally {
    if (previous === undefined) delete process.env.PREDICTION_API_KEY;
    else process.env.PREDICTION_API_KEY = previous;
  }
};

beforeAll(async () => {
  port = await freePort();
  server = await start();
}, 120_000);
afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the embedded Postgres is private', () => {
  it('has a random superuser password, in a file only its owner reads; the fixed one no longer logs in', async () => {
    const file = statSync(path.join(dataDir, CREDENTIALS_FILE));
    expect(file.mode & 0o077).toBe(0);
    expect(statSync(dataDir).mode & 0o066).toBe(0);
    expect(credentials().superuserPassword).toMatch(/^[\w-]{32}$/);
    expect(await canLogIn(`postgres://postgres:postgres@127.0.0.1:${port}/postgres`)).toMatch(/password authentication failed/);
    expect(await canLogIn(`postgres://postgres:${credentials().superuserPassword}@127.0.0.1:${port}/postgres`)).toBe('yes');
  });

  it('gives the app a login that owns its database and is no superuser', async () => {
    expect(new URL(server!.url).username).toBe(APP_ROLE);
    expect(await loginStanding(server!.url, '/proc/self/environ')).toEqual({
      super: false,
      owns: true,
      readFileError: expect.stringMatching(/permission denied/),
    });
  });

  it('starts its server without the CLI’s environment', async () => {
    const pid = readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]!;
    const environ = readFileSync(`/proc/${pid}/environ`, 'latin1');
    expect(environ).not.toContain(KEY);
    expect(environ).not.toContain('PREDICTION_API_KEY');
    expect(environ).toContain('PATH=');
  });

  it('attaches to its own running server, and refuses a server on the port that is not its own', async () => {
    const again = await start();
    expect(again.url).toBe(server!.url);
    await again.stop();
    // The suite's Postgres answers on its port: another directory's embedded Postgres must not take it for its own.
    const foreignPort = Number(new URL(inject('pgAdminUrl')).port || 5432);
    const otherDir = mkdtempSync(path.join(tmpdir(), 'embedded-foreign-'));
    try {
      await expect(startEmbeddedPostgres({ dataDir: otherDir, port: foreignPort })).rejects.toThrow(ForeignServerError);
    } finally {
      rmSync(otherDir, { recursive: true, force: true });
    }
  });

  it('makes a data directory of an earlier version private: new superuser password, its database handed to the app', async () => {
    // As an earlier version left it: superuser password `postgres`, the database and its tables the superuser's, no credentials file.
    const superuser = postgres(`postgres://postgres:${credentials().superuserPassword}@127.0.0.1:${port}/prediction`, {
      max: 1,
      onnotice: () => {},
    });
    try {
      await superuser`alter role postgres password 'postgres'`;
      await superuser`alter database prediction owner to postgres`;
      await superuser`create schema legacy`;
      await superuser`create table legacy.t (id bigint generated always as identity, v text)`;
      await superuser`create view legacy.v as select * from legacy.t`;
      await superuser`create function legacy.f() returns int language sql as 'select 1'`;
    } finally {
      await superuser.end();
    }
    await server!.stop();
    server = undefined;
    unlinkSync(path.join(dataDir, CREDENTIALS_FILE));
    server = await start();
    expect(await canLogIn(`postgres://postgres:postgres@127.0.0.1:${port}/postgres`)).toMatch(/password authentication failed/);
    const app = postgres(server.url, { max: 1, onnotice: () => {} });
    try {
      const owners = await app<{ owner: string }[]>`
        select distinct pg_get_userbyid(owner) as owner from (
          select relowner as owner from pg_class where relnamespace = 'legacy'::regnamespace
          union all select proowner from pg_proc where pronamespace = 'legacy'::regnamespace
          union all select nspowner from pg_namespace where nspname = 'legacy'
          union all select datdba from pg_database where datname = current_database()) o`;
      expect(owners).toEqual([{ owner: APP_ROLE }]);
      await app`insert into legacy.t (v) values ('x')`;
    } finally {
      await app.end();
    }
  }, 120_000);
});
