import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import { CLI_ENTRY } from './cliEntry.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `prediction-ingest <args>` as a user would (the compiled CLI), with exactly the given environment:
 * no settings file either, unless `env` names one (PREDICTION_ENV_FILE), so a `.env` of the working
 * copy is not read.
 */
export function runCli(args: string[], env: Record<string, string>, timeoutMs = 60_000): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI_ENTRY, ...args],
      { cwd: ROOT, env: { PATH: process.env.PATH ?? '', PREDICTION_ENV_FILE: '/dev/null', ...env }, timeout: timeoutMs },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}
