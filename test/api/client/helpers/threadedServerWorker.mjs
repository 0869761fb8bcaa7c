// The HTTP server of threadedServer.ts, on its own thread so that arrival times are not delayed
// by the client's work on the test's event loop. Plain JS: worker threads do not go through vitest.
import { createServer } from 'node:http';
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';

const { okBody, failFirstAttempt } = workerData;
const arrivals = [];
const seen = new Set();

function failsFirstAttempt(url, index) {
  if (!failFirstAttempt || seen.has(url)) return false;
  const id = Number((/M-(\d+)/.exec(url) ?? [])[1]);
  if (failFirstAttempt.idMod !== undefined) return id % failFirstAttempt.idMod === 0;
  return index % failFirstAttempt.indexMod === 0;
}

const server = createServer((req, res) => {
  const atMs = performance.timeOrigin + performance.now();
  const url = req.url ?? '/';
  const index = arrivals.length;
  const fail = failsFirstAttempt(url, index);
  seen.add(url);
  const status = fail ? failFirstAttempt.status : 200;
  const headers = fail ? (failFirstAttempt.headers ?? {}) : {};
  arrivals.push({ url, index, atMs, status, headers, seq: req.headers['x-test-seq'] ?? null });
  req.resume();
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  // A detail answer names the record asked for (the client rejects one that does not).
  const id = decodeURIComponent(url.split('?')[0].split('/').pop());
  res.end(fail ? (failFirstAttempt.body ?? '{}') : okBody.replaceAll('{{id}}', id));
});

server.listen(0, '127.0.0.1', () => parentPort.postMessage({ type: 'listening', port: server.address().port }));
parentPort.on('message', (message) => {
  if (message.type === 'arrivals') parentPort.postMessage({ type: 'arrivals', arrivals });
  if (message.type === 'close') {
    server.closeAllConnections();
    server.close(() => parentPort.postMessage({ type: 'closed' }));
  }
});
