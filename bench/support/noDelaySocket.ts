/**
 * A postgres.js `socket` factory that disables Nagle's algorithm (TCP_NODELAY), which postgres.js
 * 3.4 leaves on (Node's net default). With Nagle on, a message written right after another
 * unacknowledged one (COPY's CopyDone after its CopyData, for instance) waits for the server's
 * delayed ACK, ~40 ms on Linux. The benchmarks use it only to show what that costs the pipeline.
 */
import { once } from 'node:events';
import net from 'node:net';
import type postgres from 'postgres';

/** Options to spread into postgres(url, ...). `socket` is a documented option its types omit. */
export function noDelayOptions(url: string): postgres.Options<Record<string, never>> {
  const { hostname, port } = new URL(url);
  const socket = async () => {
    const s = net.connect({ host: hostname, port: Number(port || 5432), noDelay: true });
    await once(s, 'connect');
    return s;
  };
  return { socket } as postgres.Options<Record<string, never>>;
}
