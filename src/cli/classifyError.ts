import {
  ApiKeyMissingError,
  ApiKeyRejectedError,
  ApiNetworkError,
  ApiRateLimitedError,
  ApiRequestInvalidError,
  ApiServerError,
} from '../api/errors.js';
import { ConfigError } from '../config.js';
import { errorChainMessage } from '../errors/errorChainMessage.js';
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
    return { exitCode: ExitCode.upstreamUnavailable, message: `The API stayed unavailable after retries: ${errorChainMessage(error)}` };
  }
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    const tagged = e as Error & { code?: unknown; exitCode?: unknown };
    if (typeof tagged.exitCode === 'number') return { exitCode: tagged.exitCode as ExitCode, message: errorChainMessage(error) };
    if (typeof tagged.code === 'string' && DB_CONNECT_CODES.has(tagged.code) && isDatabaseError(error)) {
      return { exitCode: ExitCode.databaseUnreachable, message: `Database unreachable: ${errorChainMessage(error)}` };
    }
  }
  return { exitCode: ExitCode.failure, message: errorChainMessage(error) };
}

function isDatabaseError(error: unknown): boolean {
  // postgres.js connection errors carry `address`/`port`; server errors carry a SQLSTATE `code`.
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    const fields = e as Error & { address?: unknown; severity?: unknown; query?: unknown };
    if (fields.address !== undefined || fields.severity !== undefined || /database|postgres/i.test(e.message)) return true;
  }
  return false;
}
