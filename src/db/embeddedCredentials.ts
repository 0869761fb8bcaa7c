import { randomBytes } from 'node:crypto';
import { chmod, link, mkdir, open, readFile, unlink } from 'node:fs/promises';
import { userInfo } from 'node:os';
import path from 'node:path';

/** What makes one data directory's embedded Postgres its own: never the same in two directories. */
export interface EmbeddedCredentials {
  /** Password of the cluster's superuser (`postgres`), used only to set the cluster up. */
  superuserPassword: string;
  /** Password of the app's login, a non-superuser that owns the app's database. */
  appPassword: string;
  /**
   * Also written into the cluster's postgresql.conf (prediction.instance_token): a server on the
   * port that does not answer it is not this directory's, and is not attached to.
   */
  token: string;
}

/** The file beside the cluster (`<dataDir>/pg`), readable by its owner only. */
export const CREDENTIALS_FILE = 'embedded-postgres.json';

const secret = () => randomBytes(24).toString('base64url');

/**
 * The data directory's credentials: read from CREDENTIALS_FILE, or made up and written there (mode
 * 0600, in a directory only its owner may list) on first use. `created` says they are new: the cluster may
 * still have the password of an earlier version (`postgres`), which the caller then changes.
 */
export async function embeddedCredentials(dataDir: string): Promise<{ credentials: EmbeddedCredentials; created: boolean }> {
  // Owner only; as root, whose server runs as the system user `postgres`, that user may pass
  // through to the cluster below (0711: no listing, and the file itself stays 0600).
  const mode = userInfo().uid === 0 ? 0o711 : 0o700;
  await mkdir(dataDir, { recursive: true, mode });
  await chmod(dataDir, mode);
  const file = path.join(dataDir, CREDENTIALS_FILE);
  const existing = await readCredentials(file);
  if (existing !== undefined) return { credentials: existing, created: false };
  const credentials: EmbeddedCredentials = { superuserPassword: secret(), appPassword: secret(), token: secret() };
  // Written whole under a name of its own, then linked into place: a second process doing the same
  // meanwhile finds the file there (EEXIST) and takes its credentials rather than its own.
  const partial = `${file}.${process.pid}.${secret()}.partial`;
  const handle = await open(partial, 'wx', 0o600);
  try {
    await handle.writeFile(`${JSON.stringify(credentials, null, 2)}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await link(partial, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return { credentials: (await readCredentials(file))!, created: false };
  } finally {
    await unlink(partial).catch(() => {});
  }
  return { credentials, created: true };
}

async function readCredentials(file: string): Promise<EmbeddedCredentials | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const parsed = JSON.parse(text) as Partial<EmbeddedCredentials>;
  if (typeof parsed.superuserPassword !== 'string' || typeof parsed.appPassword !== 'string' || typeof parsed.token !== 'string') {
    throw new Error(`${file} does not hold the embedded Postgres credentials this version writes`);
  }
  await chmod(file, 0o600);
  return parsed as EmbeddedCredentials;
}
