import { type AddressInfo, connect, createServer, type Socket } from 'node:net';

import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';

import { useTestDatabase } from '../helpers/testDatabase.js';

const db = await useTestDatabase({ migrated: false });
const target = new URL(db.url);

/**
 * A forwarder that passes everything until the client sends postgres.js's array-types query (the
 * first statement of each new connection), then holds the server's answers: that query stays in
 * flight for as long as the test wants.
 */
async function holdTypesAnswer(): Promise<{ url: string; typesSent: Promise<void>; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  let sawTypes: () => void = () => {};
  const typesSent = new Promise<void>((resolve) => (sawTypes = resolve));
  const server = createServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => {});
      s.on('close', () => sockets.delete(s));
    }
    let held = false;
    client.on('data', (chunk: Buffer) => {
      if (chunk.includes('typarray')) {
        held = true;
        sawTypes();
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => void (held || client.write(chunk)));
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(db.url);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as AddressInfo).port);
  return {
    url: url.toString(),
    typesSent,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe("postgres.js's array-types query, when its connection ends first", () => {
  let proxy: Awaited<ReturnType<typeof holdTypesAnswer>> | undefined;
  afterAll(() => proxy?.close());

  // A pool ended (a service's shutdown) while a new connection waited for the types: the query's
  // rejection had no reader, and Node ends a process on an unhandled rejection (patches/postgres).
  it('fails the waiting query, and leaves no unhandled rejection', async () => {
    proxy = await holdTypesAnswer();
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const sql = postgres(proxy.url, { max: 1, onnotice: () => {} });
      const first = sql`select 1 as one`.then(
        () => 'answered',
        (error: { code?: string }) => error.code,
      );
      await proxy.typesSent;
      await sql.end({ timeout: 0 });
      expect(await first).toBe('CONNECTION_DESTROYED');
      // Unhandled rejections are reported after the microtasks of the turn that made them.
      for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
