import {
  ApiKeyMissingError,
  ApiKeyRejectedError,
  ApiNetworkError,
  ApiRateLimitedError,
  ApiRequestInvalidError,
  ApiServerError,
} from '../api/errors.js';
import { ConfigError } from '../config.js';
import { UpstreamMismatchError } from '../sql/recordUpstream.js';
import { CliError } from './cliError.js';
import { ExitCode } from './exitCodes.js';

export interface Classified {
  exitCode: ExitCode;
  message: string;
}

const DB_CONNECT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'CONNECT_TIMEOUT', 'ECONNRESET', '28P01', '3D000', '57P03']);

/** Maps any error to the one-line message and exit code the CLI reports. */
export function classifyError(error: unknown): Classified {
  if (error instanceof CliError) return { exitCode: error.exitCode, message: error.message };
  if (error instanceof ConfigError) return { exitCode: ExitCode.usage, message: error.message };
  if (error instanceof UpstreamMismatchError) return { exitCode: ExitCode.usage, message: error.message };
  if (error instanceof ApiRequestInvalidError) return { exitCode: ExitCode.usage, message: error.message };
  if (error instanceof ApiKeyMissingError) return { exitCode: ExitCode.apiKeyRejected, message: error.message };
  if (error instanceof ApiKeyRejectedError) {
    return { exitCode: ExitCode.apiKeyRejected, message: `The API rejected the key (HTTP ${error.status}): check PREDICTION_API_KEY` };
  }
  if (error instanceof ApiServerError || error instanceof ApiNetworkError || error instanceof ApiRateLimitedError) {
    return { exitCode: ExitCode.upstreamUnavailable, message: `The API stayed unavailable after retries: ${messageOf(error)}` };
  }
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    const tagged = e as Error & { code?: unknown; exitCode?: unknown };
    if (typeof tagged.exitCode === 'number') return { exitCode: tagged.exitCode as ExitCode, message: messageOf(error) };
    if (typeof tagged.code === 'string' && DB_CONNECT_CODES.has(tagged.code) && isDatabaseError(error)) {
      return { exitCode: ExitCode.databaseUnreachable, message: `Database unreachable: ${messageOf(error)}` };
    }
  }
  return { exitCode: ExitCode.failure, message: messageOf(error) };
}

function isDatabaseError(error: unknown): boolean {
  // postgres.js connection errors carry `address`/`port`; server errors carry a SQLSTATE `code`.
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    const fields = e as Error & { address?: unknown; severity?: unknown; query?: unknown };
    if (fields.address !== undefined || fields.severity !== undefined || /database|postgres/i.test(e.message)) return true;
  }
  return false;
}

/** The error's message followed by its causes' messages, deduplicated: context first, root cause last. */
function messageOf(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error; e !== undefined && e !== null; e = e instanceof Error ? e.cause : undefined) {
    const m = e instanceof Error ? e.message : String(e);
    if (m && !parts.some((p) => p.includes(m))) parts.push(m);
    if (!(e instanceof Error)) break;
  }
  return parts.join(': ') || 'unknown error';
}
