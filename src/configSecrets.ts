import type { Config } from './config.js';

/**
 * The secret values of a configuration, for `createLogger({ secrets })`: the API key, PGPASSWORD
 * and the password of each database URL (decoded, and as written in the URL, which may be
 * percent-encoded).
 */
export function configSecrets(
  config: Pick<Config, 'apiKey' | 'databaseUrl' | 'testDatabaseUrl' | 'citusTestUrl' | 'pgPassword'>,
): string[] {
  const out: string[] = [];
  if (config.apiKey) out.push(config.apiKey);
  if (config.pgPassword) out.push(config.pgPassword);
  for (const url of [config.databaseUrl, config.testDatabaseUrl, config.citusTestUrl]) {
    const password = passwordOf(url);
    if (password) out.push(...password);
  }
  return [...new Set(out)];
}

function passwordOf(url: string | undefined): string[] | undefined {
  if (!url) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (!parsed.password) return undefined;
  let decoded = parsed.password;
  try {
    decoded = decodeURIComponent(parsed.password);
  } catch {
    // A malformed escape: keep the encoded form only.
  }
  return [decoded, parsed.password];
}
