import { connect as netConnect, type Socket } from 'node:net';

import postgres from 'postgres';

import { CLIENT_KEEP_ALIVE_SEC, connectionParameters, ROLE_SETTINGS, type SessionSettings } from './sessionSettings.js';
import { watchAnswers } from './watchAnswers.js';

export interface Pool {
  sql: postgres.Sql;
  settings: Readonly<SessionSettings>;
  /**
   * Ends the pool: queries still running get `timeoutSec` to finish, then their connections are
   * destroyed (CONNECTION_DESTROYED). A socket whose peer hung keeps no process alive afterwards.
   */
  close(timeoutSec?: number): Promise<void>;
}

export interface PoolOptions {
  /** Connections at most. */
  max: number;
  /** `application_name`, visible in pg_stat_activity. */
  applicationName: string;
  /** Further postgres.js options (e.g. `max_lifetime: null` for a connection that holds a session lock). */
  extra?: Omit<postgres.Options<Record<string, postgres.PostgresType>>, 'max' | 'connection' | 'keep_alive' | 'connect_timeout'>;
}

const pools = new WeakMap<postgres.Sql, Readonly<SessionSettings>>();

/** The settings a pool was opened with; the writer role's defaults for a client not opened by openPool. */
export function settingsOf(sql: postgres.Sql): Readonly<SessionSettings> {
  return pools.get(sql) ?? ROLE_SETTINGS.writer;
}

/**
 * A postgres.js pool whose every session carries `settings` (statement, lock and idle-in-transaction
 * timeouts, server-side keep-alives) from its start-up message, with client-side keep-alives.
 *
 * The pool opens its sockets itself to keep hold of them. A connection that owes an answer past
 * `settings.answerDeadlineMs` is destroyed (watchAnswers). And postgres.js ends a connection by
 * half-closing it and waiting for the server's goodbye, which a hung server never sends, so even
 * `sql.end({ timeout })` leaves the socket open and the process alive: `close()` destroys what is
 * left. (With several hosts in the URL, connections take them in turn.)
 */
export function openPool(url: string, settings: Readonly<SessionSettings>, options: PoolOptions): Pool {
  const sockets = new Set<Socket>();
  let nextHost = 0;
  const openSocket = (o: { path: string | false; host: string[]; port: number[] }): Socket => {
    // Not on 'close': postgres.js removes this socket's listeners when TLS takes it over.
    for (const s of sockets) if (s.destroyed) sockets.delete(s);
    const i = nextHost++ % Math.max(1, o.host.length);
    const socket = o.path ? netConnect(o.path) : netConnect(o.port[i]!, o.host[i]!);
    sockets.add(socket);
    watchAnswers(socket, settings.answerDeadlineMs);
    return socket;
  };
  const sql = postgres(url, {
    onnotice: () => {},
    ...options.extra,
    max: options.max,
    connect_timeout: settings.connectTimeoutSec,
    keep_alive: CLIENT_KEEP_ALIVE_SEC,
    connection: connectionParameters(settings, options.applicationName),
    // Not in postgres.js's type declarations; documented in its README ("Custom socket").
    ...({ socket: openSocket } as object),
  });
  pools.set(sql, settings);
  return {
    sql,
    settings,
    close: async (timeoutSec = 5) => {
      try {
        await sql.end({ timeout: timeoutSec });
      } finally {
        for (const socket of sockets) socket.destroy();
      }
    },
  };
}
