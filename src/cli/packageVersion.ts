import { readFileSync } from 'node:fs';

/**
 * The version of package.json, the one the project is released under. Read beside the code: two
 * levels up from src/cli (tsx) and from dist/cli (node) alike, and in the container image, which
 * copies package.json next to dist/.
 */
export function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: unknown };
  if (typeof manifest.version !== 'string') throw new Error('package.json has no version');
  return manifest.version;
}
