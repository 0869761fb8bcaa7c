import { connect } from '../db/connect.js';
import { migrate } from '../db/migrate.js';
import { recordUpstream } from '../sql/admin/recordUpstream.js';

/**
 * What every command that writes does before anything else: apply pending migrations, then check
 * that this database is filled from `upstream` (recorded on first use; another upstream is refused
 * with UpstreamMismatchError unless `allowChange`).
 */
export async function prepareDatabase(databaseUrl: string, upstream: { id: string; allowChange: boolean }): Promise<void> {
  await migrate(databaseUrl);
  const meta = connect(databaseUrl, { max: 1 });
  try {
    await recordUpstream(meta.sql, upstream.id, { allowChange: upstream.allowChange, now: new Date() });
  } finally {
    await meta.close();
  }
}
