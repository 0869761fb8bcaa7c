import { readFileSync } from 'node:fs';

/** The version in package.json: src/export/ and dist/export/ both sit two levels below it. */
export function exporterVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: unknown };
  if (typeof pkg.version !== 'string') throw new Error('package.json has no version');
  return pkg.version;
}
