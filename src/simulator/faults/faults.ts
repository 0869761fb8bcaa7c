/** The runtime fault switchboard and its per-request draws. */
import { Rng } from '../world/prng.js';
import { heldAt, type ScheduledFaults, validateFaultSchedule } from './faultSchedule.js';
import { DEFAULT_FAULTS, type FaultSettings, mergeFaults } from './faultSettings.js';

export type ServerErrorStatus = 500 | 502 | 503;

export class Faults {
  private settings: Readonly<FaultSettings>;
  private readonly rng: Rng;
  private schedule: readonly ScheduledFaults[];
  /** The settings in force for the last combination of base settings and held entries. */
  private inForce: { base: Readonly<FaultSettings>; held: readonly ScheduledFaults[]; settings: Readonly<FaultSettings> } | undefined;

  /**
   * `schedule` holds its entries over the base settings while `elapsedSec()` (simulated seconds
   * since the world's start) is within them.
   */
  constructor(
    seed: number,
    initial: Partial<FaultSettings> = {},
    schedule: readonly ScheduledFaults[] = [],
    private readonly elapsedSec: () => number = () => 0,
  ) {
    this.rng = Rng.seeded(seed ^ 0x2545f491);
    this.settings = mergeFaults(DEFAULT_FAULTS, initial);
    this.schedule = validateFaultSchedule(schedule);
  }

  /** The settings in force now: the base ones, with the schedule's entries that hold now over them. */
  get(): Readonly<FaultSettings> {
    if (this.schedule.length === 0) return this.settings;
    const held = heldAt(this.schedule, this.elapsedSec());
    if (held.length === 0) return this.settings;
    const cached = this.inForce;
    if (cached?.base === this.settings && cached.held.length === held.length && cached.held.every((e, i) => e === held[i])) {
      return cached.settings;
    }
    const settings = held.reduce((s, e) => mergeFaults(s, e.faults), this.settings);
    this.inForce = { base: this.settings, held, settings };
    return settings;
  }

  /** Changes some base knobs, keeping the others. Throws RangeError on a bad value (nothing changes then). */
  set(patch: Partial<FaultSettings>): void {
    this.settings = mergeFaults(this.settings, patch);
  }

  /** Back to no faults at all: the base settings to their defaults, the schedule emptied. */
  reset(): void {
    this.settings = DEFAULT_FAULTS;
    this.schedule = [];
  }

  // A draw is skipped when its rate is 0, so switching one fault on does not change when the
  // others fire.
  private hit(rate: number): boolean {
    return rate > 0 && this.rng.next() < rate;
  }

  drawStorm(): boolean {
    return this.hit(this.get().rateLimitStormRate);
  }

  drawHang(): boolean {
    return this.hit(this.get().hangRate);
  }

  drawLatencyMs(): number {
    const { latencyMs, latencyJitterMs } = this.get();
    return latencyMs + (latencyJitterMs > 0 ? this.rng.next() * latencyJitterMs : 0);
  }

  drawServerError(): ServerErrorStatus | undefined {
    if (!this.hit(this.get().errorRate)) return undefined;
    return ([500, 502, 503] as const)[Math.floor(this.rng.next() * 3)];
  }

  drawOrderbookError(): boolean {
    return this.hit(this.get().orderbookErrorRate);
  }
}
