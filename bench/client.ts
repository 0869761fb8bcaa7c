/**
 * Client benchmarks: what the API client costs per request, and what validation costs per 1,000
 * markets, each as a share of the fastest plan's budget (150 requests/s, i.e. 6.67 ms a request).
 *
 *   npx tsx bench/client.ts
 *
 * The simulator runs in a child process (the `simulate` CLI), so this process's CPU time
 * (process.cpuUsage) is the client's alone; the simulator's CPU is read from /proc as a cross-check.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { Agent, request } from 'undici';

import { createPredictionClient } from '../src/api/client/index.js';
import { parseEventList } from '../src/api/parse.js';
import { ALL_CATEGORIES, KNOWN_PROVIDERS } from '../src/domain/types.js';
import { type SimCategory, type SimProvider, World } from '../src/simulator/index.js';
import { crawlPlan } from '../src/sync/crawlPlan.js';
import { fmtMs, median, printTable, section } from './support/report.js';

const REQUESTS = 2_000;
const WARMUP_REQUESTS = 1_000;
const ROUNDS = 3;
const BUDGET_MS = 1000 / 150;
const API_KEY = 'bench-key';
const PARSE_WORLD_MARKETS = 10_000;
const PARSE_ROUNDS = 5;
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLOCK_TICKS_PER_SEC = 100;

async function startSimulatorProcess(): Promise<{ child: ChildProcess; url: string }> {
  const args = [
    '--import',
    'tsx',
    'src/cli/main.ts',
    'simulate',
    '--port',
    '0',
    '--markets',
    '2000',
    '--api-key',
    API_KEY,
    '--rpm',
    '10000000',
    '--step-every-ms',
    '3600000',
  ];
  const child = spawn(process.execPath, args, { cwd: ROOT, env: {}, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.on('exit', (code) => reject(new Error(`simulator exited with ${code}: ${out}`)));
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
  });
  child.removeAllListeners('exit');
  return { child, url };
}

/** CPU seconds used so far by another process (utime + stime from /proc/<pid>/stat). */
function processCpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SEC) * 1000;
}

interface PerRequest {
  wallMs: number;
  cpuMs: number;
  simCpuMs: number;
}

async function perRequest(simPid: number, ids: readonly string[], call: (id: string) => Promise<unknown>): Promise<PerRequest> {
  const cpu = process.cpuUsage();
  const sim0 = processCpuMs(simPid);
  const start = performance.now();
  for (let i = 0; i < REQUESTS; i++) await call(ids[i % ids.length]!);
  const wallMs = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return {
    wallMs: wallMs / REQUESTS,
    cpuMs: (used.user + used.system) / 1000 / REQUESTS,
    simCpuMs: (processCpuMs(simPid) - sim0) / REQUESTS,
  };
}

/** Both paths warm up first (JIT on both sides), then alternate; the median round of each is kept. */
async function compare(simPid: number, ids: readonly string[], paths: Record<string, (id: string) => Promise<unknown>>) {
  for (const call of Object.values(paths)) for (const id of ids.slice(0, WARMUP_REQUESTS)) await call(id);
  const rounds: Record<string, PerRequest[]> = Object.fromEntries(Object.keys(paths).map((k) => [k, []]));
  for (let r = 0; r < ROUNDS; r++) for (const [k, call] of Object.entries(paths)) rounds[k]!.push(await perRequest(simPid, ids, call));
  const pick = (xs: PerRequest[]) => ({
    wallMs: median(xs.map((x) => x.wallMs)),
    cpuMs: median(xs.map((x) => x.cpuMs)),
    simCpuMs: median(xs.map((x) => x.simCpuMs)),
  });
  return Object.fromEntries(Object.entries(rounds).map(([k, xs]) => [k, pick(xs)]));
}

async function benchRequests(): Promise<void> {
  const { child, url } = await startSimulatorProcess();
  const client = createPredictionClient({ baseUrl: url, apiKey: API_KEY, rateLimit: { requests: 10_000_000 } });
  const agent = new Agent({ connections: 16 });
  try {
    const ids: string[] = [];
    for (const provider of KNOWN_PROVIDERS) {
      for await (const page of client.iterateEvents({ provider, includeMarkets: true })) {
        for (const e of page.items) if (e.ok) ids.push(...(e.value.markets ?? []).map((m) => m.marketId));
      }
    }
    const measured = await compare(child.pid!, ids, {
      raw: async (id) => {
        const res = await request(`${url}/markets/${encodeURIComponent(id)}`, { dispatcher: agent, headers: { 'x-api-key': API_KEY } });
        return res.body.json();
      },
      client: (id) => client.getMarket(id),
    });
    const raw = measured.raw!;
    const full = measured.client!;
    const share = (ms: number) => `${((ms / BUDGET_MS) * 100).toFixed(1)} %`;
    const row = (name: string, r: PerRequest, note: string) => [
      name,
      r.wallMs.toFixed(3),
      r.cpuMs.toFixed(3),
      share(r.cpuMs),
      r.simCpuMs.toFixed(3),
      note,
    ];
    printTable(
      `${REQUESTS} sequential GET /markets/{id} against the simulator process, median of ${ROUNDS} alternating rounds (budget ${BUDGET_MS.toFixed(2)} ms a request)`,
      ['path', 'wall ms/req', 'client CPU ms/req', 'CPU share of budget', 'simulator CPU ms/req', 'what'],
      [
        row('raw undici request + body.json()', raw, 'transport baseline: no queue, no validation'),
        row('createPredictionClient.getMarket', full, 'rate-limit queue, retries, size cap, scan + zod + normalize + shape fingerprint'),
        [
          'client overhead (difference)',
          (full.wallMs - raw.wallMs).toFixed(3),
          (full.cpuMs - raw.cpuMs).toFixed(3),
          share(full.cpuMs - raw.cpuMs),
          '',
          'what the client adds over a bare request',
        ],
      ],
    );
  } finally {
    await client.close();
    await agent.close();
    child.kill('SIGTERM');
  }
}

/** Every page the default crawl plan reads (one unfiltered listing per provider), as the simulator sends it. */
function listingPages(world: World): { json: string; markets: number; provider: string }[] {
  const pages: { json: string; markets: number; provider: string }[] = [];
  for (const { provider, category } of crawlPlan(KNOWN_PROVIDERS, [ALL_CATEGORIES])) {
    const listed = world.listEvents({ provider: provider as SimProvider, category: category as SimCategory | 'all', sortBy: 'beginAt' });
    for (let start = 0; start < listed.length; start += 20) {
      const events = listed.slice(start, start + 20);
      const end = start + events.length;
      const data = events.map((e) => world.eventBody(e.eventId, { includeMarkets: true }));
      pages.push({
        json: JSON.stringify({ data, pagination: { start, end, total: listed.length, hasNext: end < listed.length } }),
        markets: events.reduce((n, e) => n + e.marketIds.length, 0),
        provider,
      });
    }
  }
  return pages;
}

function benchParse(): void {
  // The live shape, as the simulator process above and the upstream send it (a bare World defaults to 'spec').
  const pages = listingPages(new World({ seed: 1, markets: PARSE_WORLD_MARKETS, shape: 'live' }));
  const markets = pages.reduce((n, p) => n + p.markets, 0);
  const bytes = pages.reduce((n, p) => n + p.json.length, 0);
  const jsonMs: number[] = [];
  const parseMs: number[] = [];
  for (let round = 0; round <= PARSE_ROUNDS; round++) {
    let t = performance.now();
    const bodies = pages.map((p) => JSON.parse(p.json) as unknown);
    const json = performance.now() - t;
    t = performance.now();
    bodies.forEach((body, i) => parseEventList(body, { provider: pages[i]!.provider }));
    const parse = performance.now() - t;
    // Round 0 warms the JIT up and is not counted.
    if (round > 0) {
      jsonMs.push(json);
      parseMs.push(parse);
    }
  }
  const per1k = (ms: number) => (ms / markets) * 1000;
  const perPage = (ms: number) => ms / pages.length;
  const share = (ms: number) => `${((ms / BUDGET_MS) * 100).toFixed(1)} %`;
  printTable(
    `validation of ${pages.length} listing pages (${markets} markets, ${(bytes / 1024 / 1024).toFixed(1)} MB JSON; median of ${PARSE_ROUNDS} rounds)`,
    ['step', 'ms per 1,000 markets', 'ms per page (~' + (markets / pages.length).toFixed(0) + ' markets)', 'page share of budget'],
    [
      ['JSON.parse', fmtMs(per1k(median(jsonMs))), perPage(median(jsonMs)).toFixed(3), share(perPage(median(jsonMs)))],
      [
        'parseEventList (scan + zod + normalize + shape fingerprint)',
        fmtMs(per1k(median(parseMs))),
        perPage(median(parseMs)).toFixed(3),
        share(perPage(median(parseMs))),
      ],
    ],
  );
}

async function main(): Promise<void> {
  section('Client overhead per request and validation cost');
  await benchRequests();
  benchParse();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
