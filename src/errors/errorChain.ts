/** The error and its causes, at most 16 deep (a cycle, `e.cause = e`, must end). */
export function* errorChain(error: unknown): Generator<Error> {
  const seen = new Set<unknown>();
  for (let e: unknown = error; e instanceof Error && !seen.has(e) && seen.size < 16; e = e.cause) {
    seen.add(e);
    yield e;
  }
}
