import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

import { afterEach, describe, expect, it, vi } from 'vitest';

import type { PredictionClient } from '../../../src/api/client/index.js';
import { type RecordingServer, startRecordingServer } from './helpers/recordingServer.js';
import { testClient } from './helpers/testClient.js';
import { requestedId, wireMarket } from './helpers/wire.js';

// A full collection on demand, to tell "unreachable" from "not collected yet".
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

async function collected(ref: WeakRef<object>): Promise<boolean> {
  for (let i = 0; i < 5 && ref.deref() !== undefined; i++) {
    await new Promise((resolve) => setImmediate(resolve));
    gc();
  }
  return ref.deref() === undefined;
}

describe('the shared queue and finished calls', () => {
  let server: RecordingServer;
  let client: PredictionClient;
  let release: () => void = () => {};
  afterEach(async () => {
    release();
    await client?.abort();
    await server?.close();
  });

  it('keeps no finished body alive while other calls still wait in the queue', async () => {
    const blocked = new Promise<void>((resolve) => (release = resolve));
    // FIRST holds the only slot until released; M-0 then finishes at once; the others take long.
    server = await startRecordingServer(async (a) => {
      const id = requestedId(a.path);
      if (id === 'FIRST') await blocked;
      return { delayMs: id === 'FIRST' || id === 'M-0' ? 0 : 30_000, json: wireMarket(id) };
    });
    client = testClient(server.baseUrl, { concurrency: 1, requestTimeoutMs: 60_000, headersTimeoutMs: 60_000 });
    const others = [
      client.getMarket('FIRST'),
      client.getMarket('M-0'),
      ...Array.from({ length: 4 }, (_, i) => client.getMarket(`M-${i + 1}`)),
    ];
    for (const call of others) call.catch(() => {});
    await vi.waitFor(() => expect(server.arrivals).toHaveLength(1), { timeout: 10_000 });
    release();
    // The market keeps its body as `raw`: that object is what the queue must not hold on to. Only
    // a weak reference to it leaves this function.
    const body = await (async () => {
      const result = await others[1]!;
      others.length = 0;
      if (!result.ok) throw new Error('expected M-0 to be accepted');
      return new WeakRef(result.value.raw as object);
    })();
    await vi.waitFor(() => expect(server.arrivals).toHaveLength(3), { timeout: 10_000 });
    expect(client.stats().queue).toEqual({ size: 3, pending: 1 });
    expect(await collected(body)).toBe(true);
  });
});
