import { keylessWarning } from '../../app/createClientFromConfig.js';
import type { Config } from '../../config.js';
import { isLoopback } from '../../net/isLoopback.js';
import { CliError } from '../cliError.js';
import { embeddedNotice } from '../embeddedNotice.js';
import { ExitCode } from '../exitCodes.js';
import { runServiceUntilSignal } from '../runServiceUntilSignal.js';

/** The options of `serve`. */
export interface ServeOptions {
  allowUpstreamChange?: boolean;
}

/** What `serve` runs: the service, until a signal stops it. */
export async function serveAction(opts: ServeOptions, deps: { getConfig: () => Readonly<Config> }): Promise<void> {
  const config = deps.getConfig();
  if (!config.apiKey && !config.keyless && !isLoopback(config.apiUrl)) {
    // Without a key the real service still answers, at a much lower keyless rate: refuse rather than crawl slowly.
    throw new CliError(
      `No PREDICTION_API_KEY is set, so nothing is sent to ${config.apiUrl}. ` +
        "Set PREDICTION_API_KEY=<your key> (from the API provider's developer portal), " +
        'PREDICTION_KEYLESS=true to try the real service without a key at its keyless rate, ' +
        'or run `npm run demo` to see the service work against the built-in simulator.',
      ExitCode.apiKeyRejected,
    );
  }
  const keyless = keylessWarning(config);
  if (keyless !== null) process.stderr.write(`prediction-ingest: warning: ${keyless}\n`);
  process.exitCode = await runServiceUntilSignal(config, {
    allowUpstreamChange: opts.allowUpstreamChange ?? false,
    onStarted: ({ databaseUrl, embedded, opsUrl }) => {
      process.stderr.write(
        `prediction-ingest: running; health and metrics at ${opsUrl} (/healthz, /readyz, /metrics)\n` +
          (embedded ? embeddedNotice(databaseUrl) : ''),
      );
    },
  });
}
