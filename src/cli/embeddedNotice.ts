import { withoutCredentials } from '../net/withoutCredentials.js';

/** The line that says where the embedded server listens; its password stays in its data folder. */
export function embeddedNotice(url: string): string {
  return `prediction-ingest: embedded Postgres at ${withoutCredentials(url)} (password in DATA_DIR/embedded-postgres.json)\n`;
}
