import { hostname } from 'node:os';

import { createClientFromConfig } from '../../app/createClientFromConfig.js';
import { prepareDatabase } from '../../app/prepareDatabase.js';
import type { Config } from '../../config.js';
import { connect } from '../../db/connect.js';
import { progressBar } from '../../export/exportProgress.js';
import { waitForJobLease } from '../../lease/waitForJobLease.js';
import { backfillClosedEvents, type BackfillOutcome } from '../../sync/backfillClosedEvents.js';
import { runLeasedJob } from '../../sync/runLeasedJob.js';
import { CliError, providerRefusedError } from '../cliError.js';
import { ExitCode } from '../exitCodes.js';
import { onShutdownSignal } from '../onShutdownSignal.js';
import { parseSince } from '../parseTime.js';
import { resolveDatabaseForCommand } from '../resolveDatabaseForCommand.js';

/** The backfill's job name: its runs in prediction.ingest_runs, and its lease (one backfill at a time). */
export const BACKFILL_JOB = 'backfill';

/** The options of `backfill`. */
export interface BackfillOptions {
  since: string;
  allowUpstreamChange?: boolean;
}

/** What `backfill` runs: the closed-events feed since `--since`, under the backfill lease. */
export async function backfillAction(opts: BackfillOptions, deps: { getConfig: () => Readonly<Config> }): Promise<void> {
  let since: Date;
  try {
    since = parseSince(opts.since, new Date());
  } catch (error) {
    throw new CliError(`--since ${JSON.stringify(opts.since)}: ${(error as Error).message}`, ExitCode.usage);
  }
  const config = deps.getConfig();
  const client = createClientFromConfig(config);
  const target = await resolveDatabaseForCommand(config);
  const database = connect(target.url, { statementTimeoutMs: config.databaseStatementTimeoutSec * 1000 });
  const stop = new AbortController();
  const removeSignals = onShutdownSignal(() => {
    process.stderr.write('prediction-ingest: stopping: the next backfill resumes after the last page committed\n');
    stop.abort();
  });
  const bar = progressBar();
  try {
    await prepareDatabase(target.url, { id: config.apiUrl, allowChange: opts.allowUpstreamChange ?? false });
    const lease = await waitForJobLease(database.sql, BACKFILL_JOB, {
      holder: `${hostname()} pid ${process.pid} (backfill)`,
      ttlMs: config.leaseTtlSec * 1000,
      signal: stop.signal,
      onWaiting: () => process.stderr.write('prediction-ingest: another backfill is running; waiting for it to finish\n'),
    });
    if (!lease) {
      process.exitCode = ExitCode.interrupted;
      return;
    }
    let outcomes: BackfillOutcome[] = [];
    const result = await runLeasedJob(
      database.sql,
      client,
      lease,
      BACKFILL_JOB,
      {
        providers: config.providers,
        categories: config.categories,
        maxRejectedPercent: config.maxRejectedPercent,
        signal: stop.signal,
      },
      async (ctx) => {
        outcomes = await backfillClosedEvents(ctx, {
          since,
          onPage: ({ provider, eventsSeen, total }) => {
            bar.start(`backfill ${provider}`, 'events', Math.max(total, eventsSeen));
            bar.advance(eventsSeen);
          },
        });
      },
    ).catch((error: unknown) => {
      if (stop.signal.aborted) throw new CliError('stopped by a signal', ExitCode.interrupted, { cause: error });
      throw providerRefusedError(error, 'PREDICTION_PROVIDERS') ?? error;
    });
    bar.stop();
    for (const o of outcomes) process.stdout.write(`${outcomeLine(o, since)}\n`);
    for (const o of outcomes) if (o.shortBy !== null) process.stderr.write(`prediction-ingest: ${o.provider}: ${o.shortBy}\n`);
    process.stdout.write(
      `backfill ${result.status}: run ${result.runId}, ${result.totals.requests} requests, ${result.totals.recordsWritten} records written, ${result.totals.recordsRejected} rejected\n`,
    );
    if (result.status === 'aborted') process.exitCode = ExitCode.interrupted;
    if (result.degradation !== null) {
      process.stderr.write(`prediction-ingest: run ${result.runId} is degraded: ${result.degradation}\n`);
      process.exitCode = ExitCode.degraded;
    }
  } finally {
    bar.stop();
    removeSignals();
    await (stop.signal.aborted ? client.abort() : client.close());
    await database.close();
    await target.release();
  }
}

function outcomeLine(o: BackfillOutcome, since: Date): string {
  const from = `since ${since.toISOString()}`;
  if (o.alreadyDone) return `${o.provider}: already backfilled ${from} (${o.eventsSeen} events); nothing read again`;
  const resumed = o.resumedAt > 0 ? `, resumed at ${o.resumedAt}` : '';
  const state = o.finished ? 'complete' : 'stopped before its end (run again to resume)';
  return `${o.provider}: ${o.eventsSeen} of ${o.total} events ${from} ${state}${resumed}`;
}
