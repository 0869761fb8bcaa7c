/**
 * An error's message followed by its causes' messages, context first and root cause last, each
 * said once (a wrapper often repeats its cause's message): "Database migration failed: connect
 * ECONNREFUSED 127.0.0.1:5432".
 */
export function errorChainMessage(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error; e !== undefined && e !== null; e = e instanceof Error ? e.cause : undefined) {
    const message = e instanceof Error ? e.message : String(e);
    if (message && !parts.some((p) => p.includes(message))) parts.push(message);
    if (!(e instanceof Error)) break;
  }
  return parts.join(': ') || 'unknown error';
}
