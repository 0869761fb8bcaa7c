import { lstat, mkdir, realpath, stat, statfs } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** The output directory is not one the export can write into, or holds what it must not write through. */
export class ExportPathError extends Error {
  override name = 'ExportPathError';
}

/**
 * File systems whose entries the kernel makes up (statfs's f_type, from linux/magic.h): nothing
 * written there is a file, and creating a directory in /proc answers ENOENT even below an existing
 * one, on which Node's recursive mkdir retries forever at full CPU, deaf to a signal.
 */
const KERNEL_FILE_SYSTEMS = new Map<number, string>([
  [0x9fa0, 'proc'],
  [0x62656572, 'sysfs'],
  [0x0027e0eb, 'cgroup'],
  [0x63677270, 'cgroup2'],
  [0x64626720, 'debugfs'],
  [0x74726163, 'tracefs'],
  [0x73636673, 'securityfs'],
  [0x00001cd1, 'devpts'],
  [0xcafe4a11, 'bpf'],
  [0x62656570, 'configfs'],
  [0x6165676c, 'pstore'],
  [0xde5e81e4, 'efivarfs'],
]);

/**
 * `path` (absolute) with the symbolic links of its existing part resolved: the state and the lock
 * of an output directory are keyed by its path, so one directory must have one path.
 */
export async function canonicalPath(path: string): Promise<string> {
  const real = await realpath(path).catch(() => undefined);
  if (real !== undefined) return real;
  const parent = dirname(path);
  return parent === path ? path : join(await canonicalPath(parent), basename(path));
}

/**
 * Refuses at once, with an ExportPathError whose message starts with `outDir` (absolute, as
 * canonicalPath gives it), an output directory that exists as something else, or that could not
 * be created soundly: below a file, through a symbolic link to nothing (or a loop of links), or on
 * a file system of the kernel's (/proc, /sys and the like). Creates nothing.
 */
export async function checkOutputDirectory(outDir: string): Promise<void> {
  let existing = outDir;
  for (;;) {
    const entry = await lstat(existing).catch(() => undefined);
    // canonicalPath resolved every link that leads somewhere: one left leads nowhere.
    if (entry?.isSymbolicLink()) {
      throw new ExportPathError(`${outDir} cannot be created: ${existing} is a symbolic link to nothing (or a loop of links)`);
    }
    if (entry !== undefined || dirname(existing) === existing) break;
    existing = dirname(existing);
  }
  const stats = await stat(existing);
  if (!stats.isDirectory()) {
    throw new ExportPathError(
      existing === outDir ? `${outDir} exists and is not a directory` : `${outDir} cannot be created: ${existing} is not a directory`,
    );
  }
  const kind = KERNEL_FILE_SYSTEMS.get(Number((await statfs(existing)).type));
  if (kind !== undefined)
    throw new ExportPathError(`${outDir} is on ${kind}, a file system of the kernel's: an export cannot be written there`);
}

/**
 * Creates `outDir` (checked by checkOutputDirectory) and its missing parents one level at a time,
 * stopping at `signal`; any level that cannot be made is an ExportPathError naming it. Not
 * `mkdir({ recursive: true })`: that retries a level whose parent exists but which answers ENOENT,
 * forever, and cannot be stopped.
 */
export async function createOutputDirectory(outDir: string, signal?: AbortSignal): Promise<void> {
  const missing: string[] = [];
  for (let dir = outDir; (await stat(dir).catch(() => undefined)) === undefined && dirname(dir) !== dir; dir = dirname(dir)) {
    missing.unshift(dir);
  }
  for (const dir of missing) {
    signal?.throwIfAborted();
    await mkdir(dir).catch((error: NodeJS.ErrnoException) => {
      // Another process made it meanwhile: fine if it is a directory (checked by the stat below).
      if (error.code !== 'EEXIST') throw new ExportPathError(`${outDir} cannot be created: ${dir}: ${error.code ?? error.message}`);
    });
  }
  const made = await stat(outDir).catch(() => undefined);
  if (!made?.isDirectory()) throw new ExportPathError(`${outDir} cannot be created: it is not a directory`);
}
