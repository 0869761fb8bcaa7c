/** The runtime fault switchboard and its per-request draws. */
import { Rng } from '../world/prng.js';
import { DEFAULT_FAULTS, type FaultSettings, mergeFaults } from './faultSettings.js';

export type ServerErrorStatus = 500 | 502 | 503;

export class Faults {
  private settings: Readonly<FaultSettings>;
  private readonly rng: Rng;

  constructor(seed: number, initial: Partial<FaultSettings> = {}) {
    this.rng = Rng.seeded(seed ^ 0x2545f491);
    this.settings = mergeFaults(DEFAULT_FAULTS, initial);
  }

  get(): Readonly<FaultSettings> {
    return this.settings;
  }

  /** Changes some knobs, keeping the others. Throws RangeError on a bad value (nothing changes then). */
  set(patch: Partial<FaultSettings>): void {
    this.settings = mergeFaults(this.settings, patch);
  }

  /** Back to no faults at all. */
  reset(): void {
    this.settings = DEFAULT_FAULTS;
  }

  // A draw is skipped when its rate is 0, so switching one fault on does not change when the
  // others fire.
  private hit(rate: number): boolean {
    return rate > 0 && this.rng.next() < rate;
  }

  drawStorm(): boolean {
    return this.hit(this.settings.rateLimitStormRate);
  }

  drawHang(): boolean {
    return this.hit(this.settings.hangRate);
  }

  drawLatencyMs(): number {
    const { latencyMs, latencyJitterMs } = this.settings;
    return latencyMs + (latencyJitterMs > 0 ? this.rng.next() * latencyJitterMs : 0);
  }

  drawServerError(): ServerErrorStatus | undefined {
    if (!this.hit(this.settings.errorRate)) return undefined;
    return ([500, 502, 503] as const)[Math.floor(this.rng.next() * 3)];
  }

  drawOrderbookError(): boolean {
    return this.hit(this.settings.orderbookErrorRate);
  }
}
