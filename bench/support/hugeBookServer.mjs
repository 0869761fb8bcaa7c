// The upstream of bench/hugeBooks.ts, in a process of its own so that its bodies do not count in
// the measured process: answers every GET .../orderbook/{id} with one prebuilt body of the
// variant named in argv[2] (argv[3] levels), sent chunked, and prints its port on stdout. Plain
// JavaScript: no loader needed.
import { Buffer } from 'node:buffer';
import { createServer } from 'node:http';

const variant = process.argv[2];
const levels = Number(process.argv[3] ?? 1_000_000);

/** Body text of `n` levels written straight into one string, without building them as objects first. */
function levelArray(n, level) {
  const parts = new Array(n);
  for (let i = 0; i < n; i++) parts[i] = level(i);
  return `[${parts.join(',')}]`;
}

function body() {
  const half = Math.floor(levels / 2);
  switch (variant) {
    // Well-formed cent levels, far over the 10,000 a side that a book may have: rejected for its size.
    case 'huge-wellformed':
      return `{"yes":${levelArray(half, (i) => `[${i % 100},${1 + (i % 977)}]`)},"no":${levelArray(levels - half, (i) => `[${i % 100},${2 + (i % 613)}]`)}}`;
    // Levels that could not be read even one by one (prices as words, negative sizes).
    case 'huge-malformed':
      return `{"yes":${levelArray(half, (i) => `["p${i % 100}",-${i % 977}]`)},"no":${levelArray(levels - half, () => '{"x":true}')}}`;
    // The largest books that pass: 10,000 levels in each of the four arrays, 10,000 distinct dollar prices a side.
    case 'largest-valid': {
      const n = 10_000;
      const cents = (i) => `[${Math.floor(i / 100)},${1000 + i}.25]`;
      const dollars = (i) => `["${((n - i) / n).toFixed(4)}",${1000 + i}.25]`;
      return `{"yes":${levelArray(n, cents)},"no":${levelArray(n, cents)},"yes_dollars":${levelArray(n, dollars)},"no_dollars":${levelArray(n, dollars)}}`;
    }
    default:
      throw new Error(`unknown variant ${variant}`);
  }
}

const payload = Buffer.from(body());
const CHUNK_BYTES = 64 * 1024;
const server = createServer((req, res) => {
  req.resume();
  if (!/\/orderbook\/[^/]+$/.test(req.url ?? '')) {
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"not found"}');
    return;
  }
  // Chunked, without content-length: the client learns the size only by reading.
  res.writeHead(200, { 'content-type': 'application/json' });
  for (let at = 0; at < payload.length; at += CHUNK_BYTES) res.write(payload.subarray(at, at + CHUNK_BYTES));
  res.end();
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: server.address().port, bodyBytes: payload.length })}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
// Gone with the process that started it, even if that one crashed: it holds our stdin.
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
