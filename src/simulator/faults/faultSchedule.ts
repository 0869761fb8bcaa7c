/**
 * Fault settings that hold for a stretch of the world's time: the upstream changing or failing on
 * a script, so that a run of a given length meets the change or the outage at a known point
 * (the demo's world, src/cli/commands/demo.ts). Times are simulated seconds since the world's start.
 */
import { DEFAULT_FAULTS, type FaultSettings, mergeFaults } from './faultSettings.js';

export interface ScheduledFaults {
  /** Simulated seconds after the world's start from which `faults` hold. */
  fromSec: number;
  /** Simulated seconds after the world's start at which they stop holding; absent: to the end. */
  untilSec?: number;
  /** The settings that hold meanwhile, over the ones set at the start or by `sim.faults.set()`. */
  faults: Partial<FaultSettings>;
}

/** Throws a RangeError naming the first bad entry; returns a frozen copy. */
export function validateFaultSchedule(schedule: readonly ScheduledFaults[]): readonly ScheduledFaults[] {
  return Object.freeze(
    schedule.map((entry, i) => {
      const { fromSec, untilSec, faults } = entry;
      if (!Number.isFinite(fromSec) || fromSec < 0)
        throw new RangeError(`faultSchedule[${i}].fromSec must be a non-negative number of seconds, got ${fromSec}`);
      if (untilSec !== undefined && !(untilSec > fromSec))
        throw new RangeError(`faultSchedule[${i}].untilSec must be after its fromSec (${fromSec}), got ${untilSec}`);
      try {
        mergeFaults(DEFAULT_FAULTS, faults);
      } catch (error) {
        throw new RangeError(`faultSchedule[${i}]: ${(error as Error).message}`, { cause: error });
      }
      return Object.freeze({ ...entry, faults: Object.freeze({ ...faults }) });
    }),
  );
}

/** The entries that hold `elapsedSec` after the world's start, in the schedule's order. */
export function heldAt(schedule: readonly ScheduledFaults[], elapsedSec: number): ScheduledFaults[] {
  return schedule.filter((e) => elapsedSec >= e.fromSec && (e.untilSec === undefined || elapsedSec < e.untilSec));
}
