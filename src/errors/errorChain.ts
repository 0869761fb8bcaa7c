/** How deep a cause chain is followed: a cycle (`e.cause = e`) must end. */
export const MAX_CAUSE_DEPTH = 16;

/** The error and its causes, at most MAX_CAUSE_DEPTH of them. */
export function* errorChain(error: unknown): Generator<Error> {
  const seen = new Set<unknown>();
  for (let e: unknown = error; e instanceof Error && !seen.has(e) && seen.size < MAX_CAUSE_DEPTH; e = e.cause) {
    seen.add(e);
    yield e;
  }
}
