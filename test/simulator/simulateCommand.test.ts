import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { registerDemo } from '../../src/cli/commands/demo.js';
import { parseSimulateOptions, registerSimulate } from '../../src/cli/commands/simulate.js';
import { CliError } from '../../src/cli/cliError.js';
import { ExitCode } from '../../src/cli/exitCodes.js';

describe('simulate command options', () => {
  it('has defaults for everything', () => {
    expect(parseSimulateOptions({})).toMatchObject({
      port: 8787,
      seed: 1,
      markets: 200,
      apiKey: undefined,
      rateLimit: { requests: 600, windowMs: 60_000 },
      keylessRateLimit: { requests: 60, windowMs: 60_000 },
      maxPageSize: 20,
      stepEveryMs: 1000,
      speed: 1,
      clock: 'realtime',
      shape: 'live',
      faults: {},
    });
  });

  it('maps --shape', () => {
    expect(parseSimulateOptions({ shape: 'spec' }).shape).toBe('spec');
    expect(parseSimulateOptions({ shape: 'mixed' }).shape).toBe('mixed');
  });

  it('maps fault flags', () => {
    const o = parseSimulateOptions({ faultErrorRate: '0.2', faultDriftKinds: 'flatMarkets, bookDollars', faultStormRetryAfterMs: '250', port: '0' });
    expect(o.port).toBe(0);
    expect(o.faults).toEqual({ errorRate: 0.2, driftKinds: ['flatMarkets', 'bookDollars'], stormRetryAfterMs: 250 });
  });

  it.each([
    [{ port: 'x' }, '--port must be an integer 0..65535, got "x"'],
    [{ port: '70000' }, '--port must be an integer'],
    [{ markets: '0' }, '--markets must be an integer'],
    [{ rpm: '1.5' }, '--rpm must be an integer'],
    [{ maxPageSize: '' }, '--max-page-size must be an integer'],
    [{ faultErrorRate: '2' }, '--fault-error-rate must be a number in 0..1'],
    [{ faultHangRate: 'abc' }, '--fault-hang-rate must be a number in 0..1'],
    [{ faultLatencyMs: '-1' }, '--fault-latency-ms must be'],
    [{ faultDriftKinds: 'nope' }, '--fault-drift-kinds must be a comma-separated list'],
    [{ apiKey: ' ' }, '--api-key must not be empty'],
    [{ speed: '0' }, '--speed must be a positive number'],
    [{ shape: 'legacy' }, '--shape must be one of live, spec, mixed, got "legacy"'],
  ])('rejects %o with a usage error naming the option', (raw, message) => {
    let error: unknown;
    try {
      parseSimulateOptions(raw);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(CliError);
    expect((error as CliError).exitCode).toBe(ExitCode.usage);
    expect((error as CliError).message).toContain(message);
  });

  it('registers `simulate`, whose action reports bad values as usage errors', async () => {
    const program = new Command().exitOverride();
    registerSimulate(program);
    expect(program.commands.map((c) => c.name())).toContain('simulate');
    await expect(program.parseAsync(['node', 'cli', 'simulate', '--port', 'x'])).rejects.toMatchObject({ exitCode: ExitCode.usage, message: expect.stringContaining('--port') });
    await expect(program.parseAsync(['node', 'cli', 'simulate', '--shape', 'x'])).rejects.toMatchObject({ exitCode: ExitCode.usage, message: expect.stringContaining('--shape') });
  });

  it('registers `demo --shape`, which reports a bad value as a usage error before starting anything', async () => {
    const program = new Command().exitOverride();
    registerDemo(program, { getConfig: () => { throw new Error('demo must not read its config before validating --shape'); } });
    await expect(program.parseAsync(['node', 'cli', 'demo', '--shape', 'nope'])).rejects.toMatchObject({ exitCode: ExitCode.usage, message: expect.stringContaining('--shape must be one of live, spec, mixed') });
  });
});
