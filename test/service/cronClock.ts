import cron, { type ScheduledTask } from 'node-cron';
import { vi } from 'vitest';

/**
 * A clock that only the test moves, for services that still talk to Postgres and HTTP for real.
 *
 * node-cron 4 arms one `setTimeout` per task to the next second its expression matches, and when it
 * fires decides from `new Date()` whether that second is due: faking setTimeout and Date is what
 * moves its ticks. setInterval and `performance` are faked with them, so that what else measures
 * time in the process reads the same clock: p-queue's rate-limit window, a lease's renewals and
 * expiry, liveness and readiness, a sweep's deadline, the simulator's limiter and request log
 * (given `nowMs: () => Date.now()`). setImmediate, process.nextTick and queueMicrotask stay real:
 * postgres.js and undici do their I/O through them. What imported its timer from a node: module
 * waits in real time: the simulator's latency and the client's backoff (node:timers/promises), the
 * client's 429 pause (performance from node:perf_hooks). So does a lease in the database: while
 * the clock stands still nothing renews it, and it lapses after its TTL (30 s) of real time.
 *
 * Faking setTimeout has a price: postgres.js opens every connection through
 * `setTimeout(connect, 0)`, which would wait for the clock to move. So a pump, on a real interval,
 * runs the timers that are due without moving the clock. A timer with a delay fires only when the
 * test moves the clock.
 *
 * The clock moves with the synchronous `vi.advanceTimersByTime`: the async variant lets real I/O
 * run between two timers, and fake-timers gives a zero-delay timer created meanwhile a 1 ms delay,
 * so a connection asked for then would wait for the next move. Moved synchronously, the timers only
 * start work (continuations run after the move), and what that work schedules is due at once. Nor
 * may a test wait with expect.poll or vi.waitFor: they move a fake clock between attempts (`until`
 * waits in real time instead).
 */
export interface CronClock {
  /** Moves the clock by `ms`, firing every timer due on the way, in order. */
  advance(ms: number): void;
  /** Moves the clock to the next whole second (a tick of `* * * * * *`) without waiting for what it starts; returns that second. */
  advanceToNextSecond(): Date;
  /**
   * Moves the clock to the next whole second and waits (in real time) until every watched task
   * still scheduled and due that second has done what it does with that tick: ran it to the end,
   * left it to another instance, skipped it as overlapping its previous run, or failed. A run that
   * waits for the clock (a full rate window) therefore never lets its tick end. Returns the second.
   */
  tick(): Promise<Date>;
  /** Ticks until `done()` answers something truthy, at most `maxTicks` times; returns that answer. */
  tickUntil<T>(what: string, done: () => Promise<T | null | undefined | false>, maxTicks?: number): Promise<T>;
  /** Watches the node-cron tasks created since the last call (those of the services just started); returns how many. */
  watchNewTasks(): number;
  /** What each watched task did with the tick of `second`, from node-cron's own events. */
  outcomes(second: Date): TickOutcome[];
  /**
   * Waits in real time, the clock standing still, until `probe` answers something truthy, and
   * returns it; fails naming `what` after `timeoutMs` of real time.
   */
  until<T>(what: string, probe: () => Promise<T | null | undefined | false> | T | null | undefined | false, timeoutMs?: number): Promise<T>;
  /**
   * Moves the clock by `stepMs` every few ms of real time until `work` settles, and returns its
   * result: for what may wait on a timer of its own, such as a stop behind a connection that waits
   * out its reconnect backoff.
   */
  runUntilSettled<T>(work: Promise<T>, stepMs?: number): Promise<T>;
  /** Lets `ms` of real time pass, the clock standing still: room for something that must not happen to show. */
  realPause(ms: number): Promise<void>;
  /** Back to real timers; timers still pending on the fake clock are dropped. */
  uninstall(): void;
}

export interface TickOutcome {
  /** The task's name: its job. */
  job: string;
  taskId: string;
  secondMs: number;
  /**
   * node-cron's event: finished (the tick function returned: it ran the job, or found the job's
   * lease taken), skipped (another instance claimed the tick, or claiming failed), overlap (the
   * task's previous tick still running), failed.
   */
  outcome: 'finished' | 'skipped' | 'overlap' | 'failed';
}

const FAKED = ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date', 'performance'] as const;
const OUTCOMES = ['finished', 'skipped', 'overlap', 'failed'] as const;

/** The real monotonic clock, ms (performance.now is faked). */
const realNowMs = () => Number(process.hrtime.bigint() / 1_000_000n);

/** Installs the fake clock at `start`, a whole second: the first tick of `* * * * * *` is then one second away. */
export function installCronClock(start: Date): CronClock {
  if (start.getTime() % 1000 !== 0) throw new RangeError(`start must be a whole second, got ${start.toISOString()}`);
  const { setInterval: realSetInterval, clearInterval: realClearInterval, setTimeout: realSetTimeout } = globalThis;
  const known = new Set(cron.getTasks().keys());
  const watched: ScheduledTask[] = [];
  const seen: TickOutcome[] = [];

  vi.useFakeTimers({ now: start, toFake: [...FAKED] });
  let moving = false;
  const pump = realSetInterval(() => {
    if (!moving) vi.advanceTimersByTime(0);
  }, 1);

  const advance = (ms: number) => {
    moving = true;
    try {
      vi.advanceTimersByTime(ms);
    } finally {
      moving = false;
    }
  };
  const until: CronClock['until'] = async (what, probe, timeoutMs = 20_000) => {
    const deadline = realNowMs() + timeoutMs;
    for (;;) {
      const value = await probe();
      if (value) return value;
      if (realNowMs() > deadline) throw new Error(`waited ${timeoutMs} ms (real time) for ${what}`);
      await new Promise((resolve) => realSetTimeout(resolve, 5));
    }
  };
  const outcomes = (second: Date) => seen.filter((o) => o.secondMs === second.getTime());
  const nextSecond = () => new Date((Math.floor(Date.now() / 1000) + 1) * 1000);
  const advanceToNextSecond = () => {
    const second = nextSecond();
    advance(second.getTime() - Date.now());
    return second;
  };
  const tick = async () => {
    const second = nextSecond();
    const due = watched.filter((t) => t.getStatus() !== 'stopped' && t.getStatus() !== 'destroyed' && t.match(second)).map((t) => t.id);
    advanceToNextSecond();
    await until(`every task's tick of ${second.toISOString()}`, () => {
      const done = new Set(outcomes(second).map((o) => o.taskId));
      return due.every((id) => done.has(id));
    });
    return second;
  };

  return {
    advance,
    advanceToNextSecond,
    tick,
    async tickUntil(what, done, maxTicks = 30) {
      for (let i = 0; i < maxTicks; i++) {
        await tick();
        const value = await done();
        if (value) return value;
      }
      throw new Error(`${maxTicks} ticks went by without ${what}`);
    },
    watchNewTasks() {
      let added = 0;
      for (const [id, task] of cron.getTasks()) {
        if (known.has(id)) continue;
        known.add(id);
        watched.push(task);
        added++;
        for (const outcome of OUTCOMES)
          task.on(`execution:${outcome}`, (context) => {
            seen.push({ job: task.name ?? id, taskId: id, secondMs: context.date.getTime(), outcome });
          });
      }
      return added;
    },
    outcomes,
    until,
    async runUntilSettled(work, stepMs = 1_000) {
      let settled = false;
      const done = work.finally(() => (settled = true));
      while (!settled) {
        await Promise.race([done.catch(() => {}), new Promise((resolve) => realSetTimeout(resolve, 10))]);
        if (!settled) advance(stepMs);
      }
      return done;
    },
    realPause: (ms) => new Promise((resolve) => realSetTimeout(resolve, ms)),
    uninstall() {
      realClearInterval(pump);
      vi.useRealTimers();
    },
  };
}
