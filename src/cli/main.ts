#!/usr/bin/env node
import { Command, CommanderError } from 'commander';

import type { Config } from '../config.js';
import type { Redact } from '../errors/createSecretRedactor.js';
import { commanderExitCode } from './commanderExitCode.js';
import { registerBackfill } from './commands/backfill.js';
import { registerDemo } from './commands/demo.js';
import { registerExplore } from './commands/explore.js';
import { registerExport } from './commands/export.js';
import { registerMigrate } from './commands/migrate.js';
import { registerPlan } from './commands/plan.js';
import { registerServe } from './commands/serve.js';
import { registerSimulate } from './commands/simulate.js';
import { registerStatus } from './commands/status.js';
import { registerSync } from './commands/sync.js';
import { limitHeapGrowth } from './limitHeapGrowth.js';
import { packageVersion } from './packageVersion.js';

limitHeapGrowth();

// A reader that stopped early (`| head`) is not a failure: what it did not read is dropped, and the
// command ends with its own exit code rather than an unhandled 'error' event and its stack.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
}

const program = new Command('prediction-ingest')
  .description('Ingests the Prediction Market Read API into a historical Postgres database.')
  .version(packageVersion(), '-V, --version', 'print the version and exit')
  .showHelpAfterError()
  .exitOverride();

// Each command loads its action when it runs (see commands/): --help, --version and a mistyped
// command load none of them, nor the configuration, which is loaded once a command is to run.
const deps = {
  getConfig: (): Readonly<Config> => {
    throw new Error('the configuration is read only once a command runs');
  },
};
program.hook('preAction', async () => {
  deps.getConfig = (await import('../config.js')).getConfig;
});
registerMigrate(program, deps);
registerSync(program, deps);
registerBackfill(program, deps);
registerSimulate(program);
registerExplore(program, deps);
registerServe(program, deps);
registerDemo(program, deps);
registerExport(program, deps);
registerStatus(program, deps);
registerPlan(program, deps);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  // commander has already printed its own errors, with the help after them (and the help or version asked for).
  if (error instanceof CommanderError) process.exitCode = commanderExitCode(error);
  else await reportError(error);
}

/** The one line of a failure on stderr (the stack too at LOG_LEVEL=debug), and its exit code. */
async function reportError(error: unknown): Promise<void> {
  const [{ classifyError }, { sanitizeText }] = await Promise.all([import('./classifyError.js'), import('../errors/sanitizeText.js')]);
  const redact = await secretRedactor();
  const { exitCode, message } = classifyError(error, { redact });
  process.stderr.write(`prediction-ingest: ${message}\n`);
  if ((await logLevelSafe()) === 'debug' && error instanceof Error) {
    // A stack repeats the message, so it gets the same treatment, line by line.
    const lines = (error.stack ?? '').split('\n').map((line) => sanitizeText(line, 2000, redact));
    process.stderr.write(`${lines.join('\n')}\n`);
  }
  process.exitCode = exitCode;
}

/** Hides the key and the database passwords in what is printed; none is known when the configuration is what failed. */
async function secretRedactor(): Promise<Redact | undefined> {
  const [{ getConfig }, { configSecrets }, { createSecretRedactor }] = await Promise.all([
    import('../config.js'),
    import('../configSecrets.js'),
    import('../errors/createSecretRedactor.js'),
  ]);
  try {
    return createSecretRedactor(configSecrets(getConfig()));
  } catch {
    return undefined;
  }
}

async function logLevelSafe(): Promise<string | undefined> {
  const { getConfig } = await import('../config.js');
  try {
    return getConfig().logLevel;
  } catch {
    return undefined;
  }
}
