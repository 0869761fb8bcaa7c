#!/usr/bin/env node
import { Command, CommanderError } from 'commander';

import { getConfig } from '../config.js';
import { configSecrets } from '../configSecrets.js';
import { createSecretRedactor, type Redact } from '../errors/createSecretRedactor.js';
import { sanitizeText } from '../errors/sanitizeText.js';
import { classifyError } from './classifyError.js';
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

const deps = { getConfig };
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
  const redact = secretRedactor();
  const { exitCode, message } = classifyError(error, { redact });
  // commander has already printed its own errors, with the help after them.
  if (!(error instanceof CommanderError)) {
    process.stderr.write(`prediction-ingest: ${message}\n`);
    if (getLogLevelSafe() === 'debug' && error instanceof Error) {
      // A stack repeats the message, so it gets the same treatment, line by line.
      const lines = (error.stack ?? '').split('\n').map((line) => sanitizeText(line, 2000, redact));
      process.stderr.write(`${lines.join('\n')}\n`);
    }
  }
  process.exitCode = exitCode;
}

/** Hides the key and the database passwords in what is printed; none is known when the configuration is what failed. */
function secretRedactor(): Redact | undefined {
  try {
    return createSecretRedactor(configSecrets(getConfig()));
  } catch {
    return undefined;
  }
}

function getLogLevelSafe(): string | undefined {
  try {
    return getConfig().logLevel;
  } catch {
    return undefined;
  }
}
