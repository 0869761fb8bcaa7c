import { Command, CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';

import { registerDemo } from '../../src/cli/commands/demo.js';
import { registerSimulate, type SimulateOptions, simulateOptions } from '../../src/cli/commands/simulate.js';

/** Parses `simulate <args>` exactly as the CLI does, without starting a simulator. */
async function parse(...args: string[]): Promise<SimulateOptions> {
  const program = new Command().exitOverride().configureOutput({ writeErr: () => {} });
  registerSimulate(program);
  const command = program.commands.find((c) => c.name() === 'simulate')!;
  let flags: unknown;
  command.action((f: unknown) => void (flags = f));
  await program.parseAsync(['node', 'cli', 'simulate', ...args]);
  return simulateOptions(flags as Parameters<typeof simulateOptions>[0]);
}

async function rejection(...args: string[]): Promise<CommanderError> {
  const error = await parse(...args).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CommanderError);
  return error as CommanderError;
}

describe('simulate command options', () => {
  it('has defaults for everything', async () => {
    expect(await parse()).toEqual({
      port: 8787,
      seed: 1,
      markets: 200,
      apiKey: undefined,
      rateLimit: { requests: 600, windowMs: 60_000 },
      keylessRateLimit: { requests: 60, windowMs: 60_000 },
      maxPageSize: 20,
      stepEveryMs: 1000,
      speed: 1,
      subSecondRetryAfter: false,
      clock: 'realtime',
      shape: 'live',
      faults: {},
    });
  });

  it('maps --shape', async () => {
    expect((await parse('--shape', 'spec')).shape).toBe('spec');
    expect((await parse('--shape', 'mixed')).shape).toBe('mixed');
  });

  it('maps the gateway window flags, none by default', async () => {
    expect((await parse('--port', '0')).gatewayWindow).toBeUndefined();
    expect((await parse('--gateway-requests', '5', '--port', '0')).gatewayWindow).toEqual({ requests: 5, windowMs: 4000 });
    expect((await parse('--gateway-requests', '5', '--gateway-window-ms', '2500', '--port', '0')).gatewayWindow).toEqual({
      requests: 5,
      windowMs: 2500,
    });
  });

  it('maps fault flags', async () => {
    const o = await parse(
      '--fault-error-rate',
      '0.2',
      '--fault-drift-kinds',
      'flatMarkets, bookDollars',
      '--fault-storm-retry-after-ms',
      '250',
      '--port',
      '0',
    );
    expect(o.port).toBe(0);
    expect(o.faults).toEqual({ errorRate: 0.2, driftKinds: ['flatMarkets', 'bookDollars'], stormRetryAfterMs: 250 });
  });

  it.each([
    [['--port', 'x'], "option '--port <n>' argument 'x' is invalid. Must be an integer 0..65535."],
    [['--port', '70000'], '--port <n>'],
    [['--markets', '0'], '--markets <m>'],
    [['--rpm', '1.5'], '--rpm <n>'],
    [['--max-page-size', ''], '--max-page-size <n>'],
    [['--fault-error-rate', '2'], "'--fault-error-rate <x>' argument '2' is invalid. Must be a number in 0..1."],
    [['--fault-hang-rate', 'abc'], '--fault-hang-rate <x>'],
    [['--fault-latency-ms', '-1'], '--fault-latency-ms <n>'],
    [['--fault-drift-kinds', 'nope'], 'Must be a comma-separated list of'],
    [['--api-key', ' '], "'--api-key <k>' argument ' ' is invalid. Must not be empty."],
    [['--speed', '0'], "'--speed <x>' argument '0' is invalid. Must be a positive number."],
    [['--shape', 'legacy'], "'--shape <s>' argument 'legacy' is invalid. Must be one of live, spec, mixed."],
  ])('rejects %o naming the option', async (args, message) => {
    const error = await rejection(...args);
    expect(error.code).toBe('commander.invalidArgument');
    expect(error.message).toContain(message);
  });

  it('registers `demo --shape`, which rejects a bad value before starting anything', async () => {
    const program = new Command().exitOverride().configureOutput({ writeErr: () => {} });
    registerDemo(program, {
      getConfig: () => {
        throw new Error('demo must not read its config before validating --shape');
      },
    });
    await expect(program.parseAsync(['node', 'cli', 'demo', '--shape', 'nope'])).rejects.toMatchObject({
      code: 'commander.invalidArgument',
      message: expect.stringContaining('Must be one of live, spec, mixed'),
    });
  });
});
