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
