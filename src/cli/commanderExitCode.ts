import type { CommanderError } from 'commander';

import { ExitCode } from './exitCodes.js';

/** Help and version requests are not errors; anything else commander rejects is a usage error. */
export function commanderExitCode(error: CommanderError): ExitCode {
  return error.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
}
