import { CommanderError } from 'commander';

import {
  ApiKeyInvalidError,
  ApiKeyMissingError,
  ApiKeyRejectedError,
  ApiNetworkError,
  ApiPaginationError,
  ApiRateLimitedError,
  ApiRequestAbortedError,
  ApiRequestInvalidError,
  ApiServerError,
} from '../api/errors.js';
import { ConfigError } from '../config.js';
import { ClockSkewError } from '../db/ClockSkewError.js';
import { MigrationBlockedError } from '../db/MigrationBlockedError.js';
import { DatabaseDeadlineError } from '../db/withDeadline.js';
import type { Redact } from '../errors/createSecretRedactor.js';
import { errorChain } from '../errors/errorChain.js';
import { errorChainMessage } from '../errors/errorChainMessage.js';
import { sanitizeText } from '../errors/sanitizeText.js';
import { UpstreamMismatchError } from '../sql/admin/recordUpstream.js';
import { CliError } from './cliError.js';
import { commanderExitCode } from './commanderExitCode.js';
import { ExitCode } from './exitCodes.js';

export interface Classified {
  exitCode: ExitCode;
  message: string;
}

export interface ClassifyOptions {
  /** Removes known secrets from the message (createSecretRedactor over configSecrets(config)). */
  redact?: Redact | undefined;
}

/** Bound of the one-line message printed on exit. */
export const MAX_EXIT_MESSAGE_CHARS = 2000;

/**
 * Maps any error to the one-line message and exit code the CLI reports. Every message goes
 * through sanitizeText: it may quote upstream text, whose terminal escapes could rewrite the
 * terminal title or print a fake "sync succeeded" line, and through `redact`.
 */
export function classifyError(error: unknown, options: ClassifyOptions = {}): Classified {
  const { exitCode, message } = classify(error);
  return { exitCode, message: sanitizeText(message, MAX_EXIT_MESSAGE_CHARS, options.redact) };
}

function classify(error: unknown): Classified {
  if (error instanceof CommanderError) return { exitCode: commanderExitCode(error), message: error.message };
  if (error instanceof CliError) return { exitCode: error.exitCode, message: error.message };
  if (error instanceof ConfigError) return { exitCode: ExitCode.usage, message: error.message };
  if (error instanceof ClockSkewError) return { exitCode: ExitCode.clockSkew, message: error.message };
  if (error instanceof UpstreamMismatchError) return { exitCode: ExitCode.usage, message: error.message };
  if (error instanceof ApiRequestInvalidError) return { exitCode: ExitCode.usage, message: error.message };
  if (error instanceof ApiKeyInvalidError) return { exitCode: ExitCode.usage, message: error.message };
  if (error instanceof ApiKeyMissingError) return { exitCode: ExitCode.apiKeyRejected, message: error.message };
  if (error instanceof ApiKeyRejectedError) {
    return { exitCode: ExitCode.apiKeyRejected, message: `The API rejected the key (HTTP ${error.status}): check PREDICTION_API_KEY` };
  }
  // Dropped on purpose by a shutdown: not the upstream's failure.
  if (error instanceof ApiRequestAbortedError)
    return { exitCode: ExitCode.interrupted, message: `Interrupted: ${errorChainMessage(error)}` };
  if (error instanceof ApiPaginationError) {
    return { exitCode: ExitCode.upstreamUnavailable, message: `The API's paging cannot be followed: ${errorChainMessage(error)}` };
  }
  if (error instanceof ApiServerError || error instanceof ApiNetworkError || error instanceof ApiRateLimitedError) {
    return { exitCode: ExitCode.upstreamUnavailable, message: `The API stayed unavailable after retries: ${errorChainMessage(error)}` };
  }
  for (const e of errorChain(error)) {
    const tagged = e as Error & { exitCode?: unknown };
    if (typeof tagged.exitCode === 'number') return { exitCode: tagged.exitCode as ExitCode, message: errorChainMessage(error) };
  }
  // A client-side deadline of ours: the connection hung, so the server could not even say so.
  if ([...errorChain(error)].some((e) => e instanceof DatabaseDeadlineError)) {
    return { exitCode: ExitCode.databaseUnreachable, message: `Database stopped answering: ${errorChainMessage(error)}` };
  }
  // The database answered, but a session it may not end held the migration off: exit 4, said as such.
  if ([...errorChain(error)].some((e) => e instanceof MigrationBlockedError)) {
    return { exitCode: ExitCode.databaseUnreachable, message: errorChainMessage(error) };
  }
  const database = databaseFailure(error);
  if (database !== undefined) {
    const sqlState = database.sqlState === undefined ? '' : ` (SQLSTATE ${database.sqlState})`;
    const advice = ADVICE[database.sqlState ?? database.code ?? ''];
    return {
      exitCode: ExitCode.databaseUnreachable,
      message: `${prefixOf(database)}: ${errorChainMessage(error)}${sqlState}${advice === undefined ? '' : `: ${advice}`}`,
    };
  }
  return { exitCode: ExitCode.failure, message: errorChainMessage(error) };
}

/**
 * Exit 4 means the database could not be reached or stopped answering, whatever the moment:
 * while connecting, or in the middle of a write. Codes are those postgres.js raises
 * (node_modules/postgres/src/errors.js and connection.js), Node's socket errors, and the SQLSTATEs
 * of the server. An error that is the database's answer to a bad query (a constraint, a syntax
 * error) is a bug, not an outage: it stays exit 1.
 */
type DatabaseFailureKind = 'unreachable' | 'stopped';

/** postgres.js's own connection errors (Errors.connection, Errors.generic). */
const CLIENT_CODES: Readonly<Record<string, DatabaseFailureKind>> = {
  CONNECT_TIMEOUT: 'unreachable',
  SASL_SIGNATURE_MISMATCH: 'unreachable',
  // The socket closed while queries were pending or sent (the server or a proxy went away).
  CONNECTION_CLOSED: 'stopped',
  // The pool was ended (sql.end) while queries were pending or sent.
  CONNECTION_ENDED: 'stopped',
  CONNECTION_DESTROYED: 'stopped',
};

/** Node's socket and DNS errors, which postgres.js passes on as they are. */
const SOCKET_CODES: Readonly<Record<string, DatabaseFailureKind>> = {
  ECONNREFUSED: 'unreachable',
  ENOTFOUND: 'unreachable',
  EAI_AGAIN: 'unreachable',
  EAI_FAIL: 'unreachable',
  EHOSTUNREACH: 'unreachable',
  ENETUNREACH: 'unreachable',
  EHOSTDOWN: 'unreachable',
  ENETDOWN: 'unreachable',
  // A Unix socket path that does not exist (host=/var/run/postgresql).
  ENOENT: 'unreachable',
  ECONNRESET: 'stopped',
  ECONNABORTED: 'stopped',
  EPIPE: 'stopped',
  // A keep-alive or TCP retransmission timeout: the connection hung.
  ETIMEDOUT: 'stopped',
};

/** SQLSTATEs (https://www.postgresql.org/docs/current/errcodes-appendix.html), exact or by prefix. */
function sqlStateKind(code: string): DatabaseFailureKind | undefined {
  switch (code) {
    case '57P03': // cannot_connect_now: starting up, shutting down, in recovery
    case '3D000': // invalid_catalog_name: the database does not exist
    case '53300': // too_many_connections
      return 'unreachable';
    case '57014': // query_canceled: statement_timeout (or a cancel request)
    case '55P03': // lock_not_available: lock_timeout
    case '25P03': // idle_in_transaction_session_timeout
      return 'stopped';
  }
  if (code.startsWith('28')) return 'unreachable'; // invalid authorization: wrong password, no pg_hba entry
  if (code.startsWith('08')) return 'stopped'; // connection exception
  if (code.startsWith('57P')) return 'stopped'; // admin_shutdown, crash_shutdown, database_dropped, idle_session_timeout
  if (code.startsWith('53')) return 'stopped'; // insufficient resources: disk full, out of memory
  if (code.startsWith('58')) return 'stopped'; // system error: I/O error on the server
  return undefined;
}

const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_(GET|VERIFY)_|DEPTH_ZERO_SELF_SIGNED_CERT$|SELF_SIGNED_CERT_IN_CHAIN$)/;

/**
 * The first words of the message: a refused login, a database that does not exist and a server
 * nothing answers for are each fixed differently (the password, the name, the host or the server),
 * so each is named as such; all exit 4.
 */
function prefixOf(failure: DatabaseFailure): string {
  const code = failure.sqlState ?? failure.code ?? '';
  if (code.startsWith('28') || code === 'SASL_SIGNATURE_MISMATCH') return 'Database refused the login';
  if (code === '3D000') return 'Database does not exist';
  return failure.kind === 'unreachable' ? 'Database unreachable' : 'Database stopped answering';
}

/** What to check, by SQLSTATE or client code, where the message alone does not say it. */
const ADVICE: Readonly<Record<string, string>> = {
  '28P01': 'check the user name and password of DATABASE_URL (or PGPASSWORD)',
  '28000': "check the user name of DATABASE_URL, and that the server's pg_hba.conf lets it in from here",
  SASL_SIGNATURE_MISMATCH: 'the server could not prove it knows the password: check DATABASE_URL',
  '3D000': 'create it (createdb), or correct the database name at the end of DATABASE_URL',
  ECONNREFUSED: 'nothing listens there: start the server, or correct the host and port of DATABASE_URL',
  ENOTFOUND: 'the host name does not resolve: correct the host of DATABASE_URL',
};

interface DatabaseFailure {
  kind: DatabaseFailureKind;
  sqlState: string | undefined;
  /** The client's or the socket's code when no SQLSTATE. */
  code?: string;
}

function databaseFailure(error: unknown): DatabaseFailure | undefined {
  if (!isDatabaseError(error)) return undefined;
  for (const e of errorChain(error)) {
    const { code, severity, syscall } = e as Error & { code?: unknown; severity?: unknown; syscall?: unknown };
    if (typeof code !== 'string') continue;
    if (typeof severity === 'string' && /^[0-9A-Z]{5}$/.test(code)) {
      const kind = sqlStateKind(code);
      if (kind !== undefined) return { kind, sqlState: code };
      continue;
    }
    const kind = CLIENT_CODES[code] ?? SOCKET_CODES[code] ?? (TLS_CODE.test(code) ? 'unreachable' : undefined);
    // A reset or a timeout while connecting means the server was never reached.
    if (kind !== undefined) return { kind: syscall === 'connect' ? 'unreachable' : kind, sqlState: undefined, code };
  }
  return undefined;
}

/**
 * Whether the failure came from the database rather than the API or the file system: postgres.js
 * server errors carry a `severity`, its connection errors an `address`, and every error it rejects
 * a query with gets a `query` property (connection.js, queryError), even a bare `read ECONNRESET`.
 */
function isDatabaseError(error: unknown): boolean {
  for (const e of errorChain(error)) {
    const fields = e as Error & { address?: unknown; severity?: unknown };
    if (fields.address !== undefined || fields.severity !== undefined || 'query' in e || /database|postgres/i.test(e.message)) return true;
  }
  return false;
}
