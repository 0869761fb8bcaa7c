import { performance } from 'node:perf_hooks';

/**
 * The client-wide "stop sending" state after a 429. While closed, the queue is paused (nothing is
 * dequeued) and every task already dequeued checks `isClosed()` right before sending, so no
 * request leaves until the server's reset time, not even one that was about to go.
 * A later 429 can only extend the pause, never shorten it.
 */
export class PauseGate {
  #untilMs = 0;
  #timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly hooks: { onClose: () => void; onOpen: () => void },
    // Monotonic and sub-millisecond: Date.now() is wall-clock and whole milliseconds, which could
    // reopen up to a millisecond early.
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Epoch ms (wall clock) at which sending resumes, or null when open. */
  get closedUntilMs(): number | null {
    return this.isClosed() ? Math.ceil(Date.now() + (this.#untilMs - this.now())) : null;
  }

  isClosed(): boolean {
    return this.now() < this.#untilMs;
  }

  closeFor(waitMs: number): void {
    const untilMs = this.now() + waitMs;
    if (untilMs <= this.#untilMs) return;
    this.#untilMs = untilMs;
    this.hooks.onClose();
    this.#schedule();
  }

  /** Cancels the reopening timer for good (client shut down): the queue stays paused. */
  dispose(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #schedule(): void {
    clearTimeout(this.#timer);
    // Deliberately not unref'd: a CLI waiting out a pause has nothing else keeping it alive.
    this.#timer = setTimeout(
      () => {
        this.#timer = undefined;
        // Timers may fire a little early against the wall clock; never reopen before the reset.
        if (this.isClosed()) return this.#schedule();
        this.hooks.onOpen();
      },
      Math.max(1, this.#untilMs - this.now()),
    );
  }
}
