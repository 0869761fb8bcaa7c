import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { MIGRATIONS_FOLDER } from '../../src/db/migrate.js';

/**
 * A copy of the migrations folder whose journal ends at migration `lastIdx`: `migrate(url, {
 * migrationsFolder })` with it brings a database to that version, and a later plain `migrate(url)`
 * applies the rest, as an upgrade would.
 */
export async function migrationsUpTo(lastIdx: number): Promise<{ folder: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'migrations-'));
  const remove = () => rm(dir, { recursive: true, force: true });
  try {
    const folder = path.join(dir, 'migrations');
    await cp(MIGRATIONS_FOLDER, folder, { recursive: true });
    const journalPath = path.join(folder, 'meta', '_journal.json');
    const journal = JSON.parse(await readFile(journalPath, 'utf8')) as { entries: { idx: number }[] };
    if (!journal.entries.some((entry) => entry.idx === lastIdx)) throw new Error(`the migrations journal has no migration ${lastIdx}`);
    journal.entries = journal.entries.filter((entry) => entry.idx <= lastIdx);
    await writeFile(journalPath, JSON.stringify(journal, null, 2));
    return { folder, remove };
  } catch (error) {
    await remove();
    throw error;
  }
}
