import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The first symbolic link found inside `dir` (at any depth, not following any), or undefined. The
 * export writes and deletes only inside its output directory: a link in there (a table's folder,
 * a day's folder or file pointing elsewhere) would carry its renames and removals outside.
 */
export async function symbolicLinkBelow(dir: string): Promise<string | undefined> {
  const entries = await readdir(dir, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isSymbolicLink()) return path;
    if (entry.isDirectory()) {
      const below = await symbolicLinkBelow(path);
      if (below !== undefined) return below;
    }
  }
  return undefined;
}
