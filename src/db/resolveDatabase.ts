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

/** DATABASE_URL when set; otherwise the embedded Postgres under DATA_DIR, started on demand. */
export async function resolveDatabase(config: DatabaseLocation, options: { embeddedDatabase?: string } = {}): Promise<DatabaseTarget> {
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
