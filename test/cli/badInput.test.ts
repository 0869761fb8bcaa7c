import { existsSync } from 'node:fs';
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { type AddressInfo, createServer, type Server } from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Simulator } from '../../src/simulator/index.js';
import { runCli } from '../helpers/runCli.js';
import { API_KEY, cliEnv, startHarness } from '../helpers/syncHarness.js';
import { useTestDatabase } from '../helpers/testDatabase.js';

/**
 * A bad argument or setting exits 2 (docs/reference.md, exit codes) with a message naming it, rather than 1
 * with whatever a lower layer said (a Postgres range error, ENOTDIR, EADDRINUSE, an HTTP 400).
 */
let sim: Simulator;
let databaseUrl: string;
beforeAll(async () => {
  ({ sim } = await startHarness({ seed: 3, markets: 20 }));
  databaseUrl = (await useTestDatabase()).url;
});
afterAll(() => sim?.stop());

const env = (extra: Record<string, string> = {}) => cliEnv(databaseUrl, sim.url, { LOG_LEVEL: 'warn', ...extra });

describe('status --since', () => {
  it.each(['3000000d', '0000-01-01'])(
    'refuses %s, before the earliest instant Postgres reads, naming the option and the range',
    async (since) => {
      const result = await runCli(['status', '--since', since], env());
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`option '--since <when>' argument '${since}' is invalid. Must not be before 0001-01-01T00:00:00Z`);
      // A duration is told the longest one accepted; a date, the earliest.
      if (/d$/.test(since)) expect(result.stderr).toMatch(/a duration of at most \d+d/);
      expect(result.stdout).toBe('');
    },
  );
});

describe('export --out', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'bad-out-'));
    await writeFile(path.join(dir, 'file'), 'x');
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('refuses a directory under a regular file, naming the option, the path and the file', async () => {
    const out = path.join(dir, 'file', 'sub', 'dir');
    const result = await runCli(['export', '--out', out], env());
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe(`prediction-ingest: --out ${out} cannot be created: ${path.join(dir, 'file')} is not a directory`);
  });

  // Before this was refused, /proc/x spun in Node's recursive mkdir at full CPU, deaf to SIGTERM,
  // and a link to nothing gave a raw ENOENT with exit 1. The database is unreachable: a refusal
  // comes before it is needed (exit 4 would say it was tried).
  it.each([
    ['/proc/prediction-ingest-export', '/proc/prediction-ingest-export', 'proc'],
    ['/proc/self', '/proc/', 'proc'],
    ['/sys/prediction-ingest-export/sub', '/sys/prediction-ingest-export/sub', 'sysfs'],
  ])('refuses %s at once, naming the option and the file system', async (out, shown, kind) => {
    const result = await runCli(['export', '--out', out], { DATABASE_URL: 'postgres://x@127.0.0.1:1/none' });
    expect(result.code).toBe(2);
    const message = result.stderr.trim();
    expect(message.startsWith(`prediction-ingest: --out ${shown}`), message).toBe(true);
    expect(message.endsWith(` is on ${kind}, a file system of the kernel's: an export cannot be written there`), message).toBe(true);
    expect(result.stdout).toBe('');
  });

  it.each(['', 'sub'])('refuses a symbolic link to nothing (as --out, or above it: %j), naming the option and the link', async (below) => {
    const link = path.join(dir, `dangling-${below}`);
    await symlink(path.join(dir, 'nowhere'), link);
    const out = path.join(link, below);
    const result = await runCli(['export', '--out', out], { DATABASE_URL: 'postgres://x@127.0.0.1:1/none' });
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe(
      `prediction-ingest: --out ${out} cannot be created: ${link} is a symbolic link to nothing (or a loop of links)`,
    );
    expect(existsSync(path.join(dir, 'nowhere'))).toBe(false);
  });
});

describe('OPS_PORT', () => {
  let taken: Server;
  beforeAll(async () => {
    taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise<void>((resolve) => taken.close(() => resolve())));

  it('in use by another process: exit 2, naming OPS_PORT and the port, no key', async () => {
    const port = (taken.address() as AddressInfo).port;
    const result = await runCli(['serve'], env({ OPS_PORT: String(port) }));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`prediction-ingest: OPS_PORT ${port} (on OPS_HOST 127.0.0.1) is already in use`);
    expect(result.stderr + result.stdout).not.toContain(API_KEY);
  });
});

describe('--provider', () => {
  it.each([['Bad Name'], [''], [' '], ['kal$hi']])(
    'refuses the malformed %j before sending anything, naming the option',
    async (provider) => {
      const before = sim.requests.length;
      const result = await runCli(['events', '--provider', provider], env());
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`option '--provider <provider>' argument '${provider}' is invalid. Must be a provider name`);
      expect(sim.requests.length).toBe(before);
    },
  );

  it.each([
    [['events', '--provider', 'nosuch']],
    [['search', 'x', '--provider', 'nosuch']],
    [['suggested', 'PK1', '--provider', 'nosuch']],
  ])('%j: a well-formed name the upstream refuses (400 on `provider`) exits 2 naming --provider, no key', async (args) => {
    const result = await runCli(args, env());
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^prediction-ingest: --provider "nosuch": the API refused the provider: Bad request \(400\): .*provider/);
    expect(result.stderr + result.stdout).not.toContain(API_KEY);
  });

  it('a provider of PREDICTION_PROVIDERS that the upstream refuses: sync exits 2 naming the variable', async () => {
    const result = await runCli(['sync'], env({ PREDICTION_PROVIDERS: 'kalshi,nosuch' }));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('prediction-ingest: PREDICTION_PROVIDERS: the API refused the provider: Bad request (400)');
    expect(result.stderr + result.stdout).not.toContain(API_KEY);
  });
});
