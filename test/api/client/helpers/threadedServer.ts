import { once } from 'node:events';
import { Worker } from 'node:worker_threads';

export interface ThreadedArrival {
  readonly url: string;
  readonly index: number;
  /** Epoch ms with sub-millisecond precision (performance.timeOrigin + performance.now()). */
  readonly atMs: number;
  readonly status: number;
  readonly headers: Record<string, string>;
  /** The `x-test-seq` header set by sendLog's interceptor. */
  readonly seq: string | null;
}

export interface ThreadedServerConfig {
  /** Body of every 200 answer; `{{id}}` in it becomes the last path segment of the request (the id asked for). */
  okBody: string;
  /** Fail the first attempt of some requests: those whose `M-<n>` id is a multiple of idMod, or whose arrival index is a multiple of indexMod. */
  failFirstAttempt?: { status: number; headers?: Record<string, string>; body?: string; idMod?: number; indexMod?: number };
}

/** A recording HTTP server on a worker thread: its arrival times are not skewed by the client's event loop. */
export async function startThreadedServer(config: ThreadedServerConfig) {
  const worker = new Worker(new URL('./threadedServerWorker.mjs', import.meta.url), { workerData: config });
  const [listening] = (await once(worker, 'message')) as [{ port: number }];
  const request = async <T>(type: string): Promise<T> => {
    const reply = once(worker, 'message') as Promise<[T]>;
    worker.postMessage({ type });
    return (await reply)[0];
  };
  return {
    baseUrl: `http://127.0.0.1:${listening.port}/prediction/v1`,
    async arrivals(): Promise<ThreadedArrival[]> {
      return (await request<{ arrivals: ThreadedArrival[] }>('arrivals')).arrivals;
    },
    async close(): Promise<void> {
      await request('close');
      await worker.terminate();
    },
  };
}
