import { fileURLToPath } from 'node:url';

/**
 * The compiled CLI, as `npm run cli` runs it: a process started from it loads in a fraction of the
 * time a TypeScript loader takes. The global setup brings `dist/` up to date first
 * (scripts/build.mjs), so the tests never run stale code.
 */
export const CLI_ENTRY = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
