import { ApiBadRequestError } from '../api/errors.js';
import { errorChain } from '../errors/errorChain.js';
import { ExitCode } from './exitCodes.js';

/** An error meant for the person at the terminal: printed as one line, exits with `exitCode`. */
export class CliError extends Error {
  override name = 'CliError';
  constructor(
    message: string,
    readonly exitCode: ExitCode,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** A bad command-line argument, named in the message. */
export function usageError(message: string): CliError {
  return new CliError(message, ExitCode.usage);
}

/**
 * A 400 whose body blames the `provider` parameter: the user's value was refused (the service
 * knows no such provider), so exit 2 naming where it came from (`--provider "foo"`, or
 * PREDICTION_PROVIDERS), else undefined. Any other 400 stays a failure: the other parameters are ours.
 */
export function providerRefusedError(error: unknown, source: string): CliError | undefined {
  for (const e of errorChain(error)) {
    if (e instanceof ApiBadRequestError && e.param === 'provider') {
      return new CliError(`${source}: the API refused the provider: ${e.message}`, ExitCode.usage, { cause: error });
    }
  }
  return undefined;
}
