import type { AddressInfo } from 'node:net';
import { connect, createServer, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  /** The port the proxy listens on; the same across stop() and start(). */
  readonly port: number;
  /** Stops listening and cuts every proxied connection: the target looks gone. */
  stop(): Promise<void>;
  /** Listens again on the same port: the target is back. */
  start(): Promise<void>;
  /**
   * Keeps every connection open, and accepts new ones, but forwards nothing in either direction:
   * the target looks hung (a stopped server, a stalled network path). The kernel still
   * acknowledges what is sent, so TCP keep-alives do not notice; only a deadline does.
   */
  freeze(): void;
  /** Forwards again, what was held back during the freeze included. */
  thaw(): void;
  /** Stops listening but keeps the connections it has (held, if frozen): a new connection is refused. */
  refuseNew(): Promise<void>;
  /** Connections accepted so far (to see whether a client reconnected, say). */
  readonly accepted: number;
}

interface Pair {
  client: Socket;
  upstream: Socket;
}

/**
 * A TCP forwarder on 127.0.0.1 in front of `target`, to make a server disappear, hang or come back
 * without touching the server itself (which other test files share).
 */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const pairs = new Set<Pair>();
  let server: Server | undefined;
  let port = 0;
  let frozen = false;
  let accepted = 0;

  const forward = ({ client, upstream }: Pair) => {
    client.pipe(upstream);
    upstream.pipe(client);
  };
  const hold = ({ client, upstream }: Pair) => {
    client.unpipe(upstream);
    upstream.unpipe(client);
    client.pause();
    upstream.pause();
  };

  const listen = async () => {
    const s = createServer((client) => {
      accepted += 1;
      const upstream = connect(target.port, target.host);
      const pair = { client, upstream };
      pairs.add(pair);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('close', () => {
          sockets.delete(socket);
          pairs.delete(pair);
        });
        socket.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      if (frozen) hold(pair);
      else forward(pair);
    });
    await new Promise<void>((resolve, reject) => {
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => resolve());
    });
    port = (s.address() as AddressInfo).port;
    server = s;
  };

  await listen();
  return {
    get port() {
      return port;
    },
    get accepted() {
      return accepted;
    },
    async stop() {
      const s = server;
      server = undefined;
      const closed = s ? new Promise<void>((resolve) => s.close(() => resolve())) : Promise.resolve();
      for (const socket of sockets) socket.destroy();
      await closed;
    },
    async start() {
      if (!server) await listen();
    },
    async refuseNew() {
      const s = server;
      server = undefined;
      // close() stops listening at once; its callback would wait for the connections kept.
      s?.close();
      await new Promise((resolve) => setImmediate(resolve));
    },
    freeze() {
      if (frozen) return;
      frozen = true;
      for (const pair of pairs) hold(pair);
    },
    thaw() {
      if (!frozen) return;
      frozen = false;
      for (const pair of pairs) forward(pair);
    },
  };
}

/** A proxy in front of the Postgres of `databaseUrl`, and the same URL pointed at the proxy. */
export async function proxyDatabase(databaseUrl: string): Promise<{ proxy: TcpProxy; url: string }> {
  const target = new URL(databaseUrl);
  const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
  target.hostname = '127.0.0.1';
  target.port = String(proxy.port);
  return { proxy, url: target.href };
}
