import { mkdir, open, rename, rm, rmdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

// Files appear whole or not at all: each is written under a temporary name in the output directory's
// own temporary folder (same file system), flushed, and renamed over its final name, and the
// directory entry is flushed too. A reader, or an export killed at any moment, sees the old file or
// the new one, never a part of one.

/** Flushes a file's data to disk. */
async function syncFile(path: string): Promise<void> {
  const handle = await open(path, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Flushes a directory's entries (a rename in it) to disk, where the platform allows it. */
async function syncDirectory(path: string): Promise<void> {
  let handle;
  try {
    handle = await open(path, 'r');
    await handle.sync();
  } catch (error) {
    // Windows cannot open a directory this way, and some file systems refuse fsync on one.
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EISDIR' && code !== 'EPERM' && code !== 'EINVAL' && code !== 'EACCES') throw error;
  } finally {
    await handle?.close();
  }
}

/** Moves the finished file `temporary` to `final` (replacing it), durably. */
export async function replaceFile(temporary: string, final: string): Promise<void> {
  await syncFile(temporary);
  await mkdir(dirname(final), { recursive: true });
  await rename(temporary, final);
  await syncDirectory(dirname(final));
}

/** Writes `content` to `final` through `temporary`. */
export async function writeFileDurably(temporary: string, final: string, content: string): Promise<void> {
  await writeFile(temporary, content);
  await replaceFile(temporary, final);
}

/** Removes `final` and its directory once empty (a partition whose day holds no row any more). */
export async function removeFile(final: string): Promise<void> {
  await rm(final, { force: true });
  await rmdir(dirname(final)).catch(() => {});
  await syncDirectory(dirname(dirname(final)));
}
