/**
 * The write-path and sync benchmarks. Run on demand, never in tests:
 *
 *   npx tsx bench/sync.ts [levels|upsert|unchanged|rss|rss-tsx|all] [--db postgres://user@host:5432/postgres]
 *
 * Each benchmark creates its own scratch databases (bench_sync_*) on that server, migrates them
 * with the app's migrations and drops them at the end. See bench/README.md.
 */
import { benchLevels } from './levels.js';
import { DEFAULT_SERVER_URL } from './support/scratchDb.js';
import { benchSyncRss } from './syncRss.js';
import { benchUnchangedCycle } from './unchangedCycle.js';
import { benchUpsert } from './upsert.js';

const BENCHES: Record<string, (serverUrl: string) => Promise<void>> = {
  levels: benchLevels,
  upsert: benchUpsert,
  unchanged: benchUnchangedCycle,
  rss: (url) => benchSyncRss(url, 'full'),
  'rss-tsx': (url) => benchSyncRss(url, 'tsx'),
};
/** What `all` (or no name) runs: everything but the extra 100k-market sync through tsx. */
const ALL = ['levels', 'upsert', 'unchanged', 'rss'];

/** `[name] [--db URL]`, from argv only (only src/config.ts reads the environment). */
export function parseArgs(argv: readonly string[]): { names: string[]; serverUrl: string } {
  let serverUrl = DEFAULT_SERVER_URL;
  const names: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--db') serverUrl = argv[++i] ?? '';
    else names.push(argv[i]!);
  }
  if (!/^postgres(ql)?:\/\//.test(serverUrl))
    throw new Error('--db needs a postgres:// URL of a server where this user may CREATE DATABASE');
  return { names, serverUrl };
}

async function main(): Promise<void> {
  const { names, serverUrl } = parseArgs(process.argv.slice(2));
  const chosen = names.length === 0 || names.includes('all') ? ALL : names;
  const unknown = chosen.filter((n) => !(n in BENCHES));
  if (unknown.length > 0) throw new Error(`unknown benchmark ${unknown.join(', ')}; choose from ${Object.keys(BENCHES).join(', ')}, all`);
  console.log(`# prediction-ingest sync benchmarks — ${new Date().toISOString()}, Node ${process.version}`);
  for (const name of chosen) {
    const start = performance.now();
    await BENCHES[name]!(serverUrl);
    console.log(`\n(${name}: ${((performance.now() - start) / 1000).toFixed(1)} s)`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
