import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

import { CLI_ENTRY } from './cliEntry.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface RunningCli {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  /** Resolves once `pattern` appears on stdout or stderr. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
}

/**
 * Starts `prediction-ingest <args>` as a child process with exactly the given environment (and no
 * settings file, unless `env` names one: a `.env` of the working copy is not read).
 * `ownProcessGroup` makes it the leader of a process group, as a shell does for a command: a
 * signal to the group (`process.kill(-pid, ...)`) then reaches it and its children, as Ctrl-C does.
 * `nodeArgs` go to node before the rest (`--import` of a module that changes what can be loaded).
 */
export function spawnCli(
  args: string[],
  env: Record<string, string>,
  options: { ownProcessGroup?: boolean; nodeArgs?: string[] } = {},
): RunningCli {
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), CLI_ENTRY, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', PREDICTION_ENV_FILE: '/dev/null', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.ownProcessGroup ?? false,
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  // 'exit' can come before the last output has been read; 'close' alone would wait for any
  // grandchild still holding the pipes (a database server the CLI started), so at most a while.
  const drained = Promise.all([once(child.stdout!, 'close'), once(child.stderr!, 'close')]).catch(() => undefined);
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      const grace = setTimeout(() => resolve(code), 2_000);
      void drained.then(() => {
        clearTimeout(grace);
        resolve(code);
      });
    }),
  );
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    async waitFor(pattern, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const match = pattern.exec(out + err);
        if (match) return match;
        if (child.exitCode !== null || Date.now() > deadline) {
          throw new Error(`never saw ${pattern}; exit ${child.exitCode}\nstdout: ${out.slice(-2000)}\nstderr: ${err.slice(-2000)}`);
        }
        await new Promise((r) => setTimeout(r, 20));
      }
    },
  };
}
