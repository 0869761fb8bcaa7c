import { startEmbeddedPostgres } from './embedded.js';

export interface DatabaseTarget {
  url: string;
  /** True when this process runs (or attached to) the embedded Postgres under DATA_DIR. */
  embedded: boolean;
  /** Stops the embedded server if this process started it. */
  release(): Promise<void>;
}

/** The settings (src/config.ts) that say where the database is; the database layer reads no more of the configuration. */
export interface DatabaseLocation {
  databaseUrl: string | undefined;
  dataDir: string;
  embeddedPgPort: number;
}

export interface ResolveOptions {
  /** Called when this process starts the embedded server (seconds; longer on a first run), not when it attaches to a running one. */
  onStarting?: (databaseDir: string) => void;
}

/**
 * DATABASE_URL when set; otherwise the embedded Postgres under DATA_DIR, started on demand, and its
 * one application database: the demo, the service and every command read and write the same one.
 */
export async function resolveDatabase(config: DatabaseLocation, options: ResolveOptions = {}): Promise<DatabaseTarget> {
  if (config.databaseUrl) {
    return { url: config.databaseUrl, embedded: false, release: async () => {} };
  }
  const embedded = await startEmbeddedPostgres({
    dataDir: config.dataDir,
    port: config.embeddedPgPort,
    ...(options.onStarting ? { onStarting: options.onStarting } : {}),
  });
  return { url: embedded.url, embedded: true, release: () => embedded.stop() };
}
