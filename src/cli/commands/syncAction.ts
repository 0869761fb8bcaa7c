import { hostname } from 'node:os';

import { planAboveServer } from '../../api/client/index.js';
import { createClientFromConfig, keylessWarning } from '../../app/createClientFromConfig.js';
import { prepareDatabase } from '../../app/prepareDatabase.js';
import type { Config } from '../../config.js';
import { connect } from '../../db/connect.js';
import { errorChainMessage } from '../../errors/errorChainMessage.js';
import { waitForJobLease } from '../../lease/waitForJobLease.js';
import { connectPacker } from '../../partitions/connectPacker.js';
import { SYNC_JOB } from '../../sync/jobCatalog.js';
import { runLeasedJob } from '../../sync/runLeasedJob.js';
import { syncCycle, type SyncResult } from '../../sync/runSyncCycle.js';
import { CliError, providerRefusedError } from '../cliError.js';
import { ExitCode } from '../exitCodes.js';
import { onShutdownSignal } from '../onShutdownSignal.js';
import { progressLine } from '../progressLine.js';
import { resolveDatabaseForCommand } from '../resolveDatabaseForCommand.js';

/** The options of `sync`. */
export interface SyncOptions {
  maxOrderbooks?: number;
  batchSize: number;
  allowUpstreamChange?: boolean;
}

/** What `sync` runs: one cycle under the sync lease, its summary on stdout. */
export async function syncAction(opts: SyncOptions, deps: { getConfig: () => Readonly<Config> }): Promise<void> {
  const { batchSize } = opts;
  const maxOrderBooks = opts.maxOrderbooks ?? null;
  const config = deps.getConfig();
  const client = createClientFromConfig(config);
  const keyless = keylessWarning(config);
  if (keyless !== null) process.stderr.write(`prediction-ingest: warning: ${keyless}\n`);
  const target = await resolveDatabaseForCommand(config);
  const database = connect(target.url, { statementTimeoutMs: config.databaseStatementTimeoutSec * 1000 });
  // Connects only if a closed month is to be packed at the end of the cycle.
  const packer = connectPacker(target.url);
  const stop = new AbortController();
  const removeSignals = onShutdownSignal(() => {
    process.stderr.write('prediction-ingest: stopping: no request is sent any more; committing what was fetched (again to force)\n');
    stop.abort();
  });
  const progress = progressLine();
  try {
    await prepareDatabase(target.url, { id: config.apiUrl, allowChange: opts.allowUpstreamChange ?? false });
    // One sync at a time: a second one waits, polling, until the first releases the lease or,
    // if it crashed, until its lease expires.
    const lease = await waitForJobLease(database.sql, SYNC_JOB, {
      holder: `${hostname()} pid ${process.pid} (sync)`,
      ttlMs: config.leaseTtlSec * 1000,
      signal: stop.signal,
      onWaiting: () => process.stderr.write('prediction-ingest: another sync is running; waiting for it to finish\n'),
    });
    if (!lease) {
      process.exitCode = ExitCode.interrupted;
      return;
    }
    const result = await runLeasedJob(
      database.sql,
      client,
      lease,
      SYNC_JOB,
      {
        providers: config.providers,
        categories: config.categories,
        batchSize,
        maxRejectedPercent: config.maxRejectedPercent,
        clockToleranceMs: config.clockToleranceSec * 1000,
        expectRecords: true,
        signal: stop.signal,
        progress: progress.update,
      },
      syncCycle({
        maxOrderBooks,
        retentionMonths: config.retentionMonths,
        packer: packer.sql,
        runRetentionDays: config.runRetentionDays,
      }),
    ).catch((error: unknown) => {
      // A stop drops requests mid-call: whatever surfaces from that is the stop, not a failure.
      if (stop.signal.aborted) throw new CliError('stopped by a signal', ExitCode.interrupted, { cause: error });
      throw leaseLost(lease.lost, stop.signal, error) ?? providerRefusedError(error, 'PREDICTION_PROVIDERS') ?? error;
    });
    const lost = leaseLost(lease.lost, stop.signal);
    if (lost) throw lost;
    progress.done();
    process.stdout.write(`${summaryLine(result)}\n`);
    for (const notice of result.notices) process.stderr.write(`prediction-ingest: ${notice}\n`);
    const stats = client.stats();
    const aboveServer = planAboveServer(stats.planRequestsPerMinute, stats.serverWindow);
    if (aboveServer !== null) process.stderr.write(`prediction-ingest: warning: ${aboveServer}\n`);
    if (result.status === 'aborted') process.exitCode = ExitCode.interrupted;
    if (result.degradation !== null) {
      process.stderr.write(`prediction-ingest: run ${result.runId} is degraded: ${result.degradation}\n`);
      process.exitCode = ExitCode.degraded;
    }
  } finally {
    progress.done();
    removeSignals();
    // After a stop nothing is waited for upstream: a hung request must not hold the exit.
    await (stop.signal.aborted ? client.abort() : client.close());
    await Promise.all([database.close(), packer.close()]);
    await target.release();
  }
}

/**
 * The error to exit with when the lease was lost while no signal asked to stop, else undefined.
 * A lease is lost only when its renewals did not reach the database in time (another sync may
 * then have taken over): a database failure, exit 4. What was committed before stays.
 */
function leaseLost(lost: AbortSignal, stop: AbortSignal, error?: unknown): CliError | undefined {
  if (!lost.aborted || stop.aborted) return undefined;
  return new CliError(
    `${errorChainMessage(lost.reason)}; the sync stopped, and what it committed before stays`,
    ExitCode.databaseUnreachable,
    {
      cause: error ?? lost.reason,
    },
  );
}

const withDrift = (t: SyncResult['totals']) => Object.values(t.recordsByEndpoint).reduce((n, c) => n + c.acceptedWithDrift, 0);

function summaryLine(r: SyncResult): string {
  const t = r.totals;
  const statuses: Record<string, number> = {};
  for (const byStatus of Object.values(t.requestsByStatus)) {
    for (const [s, n] of Object.entries(byStatus)) statuses[s] = (statuses[s] ?? 0) + n;
  }
  const rows =
    Object.entries(t.rowsByTable)
      .filter(([, n]) => n > 0)
      .map(([k, n]) => `${k}=${n}`)
      .join(' ') || 'none';
  return [
    `sync ${r.status}: run ${r.runId} in ${(r.durationMs / 1000).toFixed(1)}s`,
    `requests ${t.requests} (${
      Object.entries(statuses)
        .map(([s, n]) => `${s}:${n}`)
        .join(' ') || 'none'
    })`,
    `records seen ${t.recordsSeen}, written ${t.recordsWritten}, with drift ${withDrift(t)}, rejected ${t.recordsRejected}, gone ${r.notFound}`,
    `new rows ${rows}`,
  ].join(' | ');
}
