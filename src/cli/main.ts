#!/usr/bin/env node
import { Command, CommanderError } from 'commander';
import { getConfig } from '../config.js';
import { classifyError } from './classifyError.js';
import { ExitCode } from './exitCodes.js';
import { limitHeapGrowth } from './limitHeapGrowth.js';
import { registerDemo } from './commands/demo.js';
import { registerExplore } from './commands/explore.js';
import { registerMigrate } from './commands/migrate.js';
import { registerServe } from './commands/serve.js';
import { registerSimulate } from './commands/simulate.js';
import { registerSync } from './commands/sync.js';

limitHeapGrowth();

const program = new Command('prediction-ingest')
  .description('Ingests the Prediction Market Read API into a historical Postgres database.')
  .showHelpAfterError()
  .exitOverride();

const deps = { getConfig };
registerMigrate(program, deps);
registerSync(program, deps);
registerSimulate(program);
registerExplore(program, deps);
registerServe(program, deps);
registerDemo(program, deps);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    // Help and version requests are not errors; anything else commander rejects is a usage error.
    process.exitCode = error.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
  } else {
    const { exitCode, message } = classifyError(error);
    process.stderr.write(`prediction-ingest: ${message}\n`);
    if (getLogLevelSafe() === 'debug' && error instanceof Error) process.stderr.write(`${error.stack}\n`);
    process.exitCode = exitCode;
  }
}

function getLogLevelSafe(): string | undefined {
  try {
    return getConfig().logLevel;
  } catch {
    return undefined;
  }
}
