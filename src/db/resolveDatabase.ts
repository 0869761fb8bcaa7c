import type { Config } from '../config.js';
import { startEmbeddedPostgres } from './embedded.js';

export interface DatabaseTarget {
  url: string;
  /** True when this process runs (or attached to) the embedded Postgres under DATA_DIR. */
  embedded: boolean;
  /** Stops the embedded server if this process started it. */
  release(): Promise<void>;
}

/** DATABASE_URL when set; otherwise the embedded Postgres under DATA_DIR, started on demand. */
export async function resolveDatabase(
  config: Pick<Config, 'databaseUrl' | 'dataDir' | 'embeddedPgPort'>,
  options: { embeddedDatabase?: string } = {},
): Promise<DatabaseTarget> {
  if (config.databaseUrl) {
    return { url: config.databaseUrl, embedded: false, release: async () => {} };
  }
  const embedded = await startEmbeddedPostgres({
    dataDir: config.dataDir,
    port: config.embeddedPgPort,
    ...(options.embeddedDatabase ? { database: options.embeddedDatabase } : {}),
  });
  return { url: embedded.url, embedded: true, release: () => embedded.stop() };
}
