import type { Command } from 'commander';
import { createClientFromConfig } from '../../app/createClientFromConfig.js';
import type { Config } from '../../config.js';
import { connect } from '../../db/connect.js';
import { migrate } from '../../db/migrate.js';
import { resolveDatabase } from '../../db/resolveDatabase.js';
import { acquireJobLock } from '../../sql/jobLock.js';
import { recordUpstream } from '../../sql/recordUpstream.js';
import { abortOrphanedRuns } from '../../sql/ingestRuns.js';
import { runSyncCycle, SYNC_JOB, type SyncResult } from '../../sync/runSyncCycle.js';
import { ExitCode } from '../exitCodes.js';
import { onShutdownSignal } from '../onShutdownSignal.js';
import { parseIntOption } from '../parseOptions.js';
import { progressLine } from '../progressLine.js';

export function registerSync(program: Command, deps: { getConfig: () => Readonly<Config> }): void {
  program
    .command('sync')
    .description('run one complete sync cycle against the configured API and database, then exit')
    .option('--max-orderbooks <n>', 'fetch at most N order books this cycle (default: every open market)')
    .option('--batch-size <n>', 'items fetched per write transaction in the detail and order-book phases', '50')
    .option('--allow-upstream-change', 'write into a database that holds data from another PREDICTION_API_URL')
    .action(async (opts: { maxOrderbooks?: string; batchSize: string; allowUpstreamChange?: boolean }) => {
      const maxOrderBooks = parseIntOption('--max-orderbooks', opts.maxOrderbooks, 0) ?? null;
      const batchSize = parseIntOption('--batch-size', opts.batchSize, 1)!;
      const config = deps.getConfig();
      const client = createClientFromConfig(config);
      const target = await resolveDatabase(config);
      if (target.embedded) process.stderr.write(`prediction-ingest: embedded Postgres at ${target.url}\n`);
      const database = connect(target.url);
      const stop = new AbortController();
      const removeSignals = onShutdownSignal(() => {
        process.stderr.write('prediction-ingest: stopping after the current page commits (again to force)\n');
        stop.abort();
      });
      const progress = progressLine();
      try {
        await migrate(target.url);
        await recordUpstream(database.sql, config.apiUrl, { allowChange: opts.allowUpstreamChange ?? false, now: new Date() });
        const lock = await acquireJobLock(target.url, SYNC_JOB, { wait: false })
          ?? (process.stderr.write('prediction-ingest: another sync is running; waiting for it to finish\n'),
              await acquireJobLock(target.url, SYNC_JOB, { wait: true }))!;
        try {
          await abortOrphanedRuns(database.sql, SYNC_JOB, new Date());
          const result = await runSyncCycle(database.sql, client, {
            providers: config.providers,
            categories: config.categories,
            maxOrderBooks,
            batchSize,
            maxRejectedPercent: config.maxRejectedPercent,
            expectRecords: true,
            signal: stop.signal,
            progress: progress.update,
          });
          progress.done();
          process.stdout.write(`${summaryLine(result)}\n`);
          if (result.status === 'aborted') process.exitCode = ExitCode.interrupted;
          if (result.degradation !== null) {
            process.stderr.write(`prediction-ingest: run ${result.runId} is degraded: ${result.degradation}\n`);
            process.exitCode = ExitCode.degraded;
          }
        } finally {
          await lock.release();
        }
      } finally {
        progress.done();
        removeSignals();
        await client.close();
        await database.close();
        await target.release();
      }
    });
}

const withDrift = (t: SyncResult['totals']) => Object.values(t.recordsByEndpoint).reduce((n, c) => n + c.acceptedWithDrift, 0);

function summaryLine(r: SyncResult): string {
  const t = r.totals;
  const statuses: Record<string, number> = {};
  for (const byStatus of Object.values(t.requestsByStatus)) {
    for (const [s, n] of Object.entries(byStatus)) statuses[s] = (statuses[s] ?? 0) + n;
  }
  const rows = Object.entries(t.rowsByTable).filter(([, n]) => n > 0).map(([k, n]) => `${k}=${n}`).join(' ') || 'none';
  return [
    `sync ${r.status}: run ${r.runId} in ${(r.durationMs / 1000).toFixed(1)}s`,
    `requests ${t.requests} (${Object.entries(statuses).map(([s, n]) => `${s}:${n}`).join(' ') || 'none'})`,
    `records seen ${t.recordsSeen}, written ${t.recordsWritten}, with drift ${withDrift(t)}, rejected ${t.recordsRejected}, gone ${r.notFound}`,
    `new rows ${rows}`,
  ].join(' | ');
}
