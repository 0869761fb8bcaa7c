import { afterEach, describe, expect, it, vi } from 'vitest';

import { PauseGate } from '../../../src/api/client/PauseGate.js';

describe('PauseGate', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('closes for the wait, is only ever extended, and reopens once at the latest end', () => {
    vi.useFakeTimers();
    let nowMs = 1000;
    const events: string[] = [];
    const gate = new PauseGate({ onClose: () => events.push(`close@${nowMs}`), onOpen: () => events.push(`open@${nowMs}`) }, () => nowMs);
    const advance = (ms: number) => {
      nowMs += ms;
      vi.advanceTimersByTime(ms);
    };

    expect(gate.isClosed()).toBe(false);
    gate.closeFor(100);
    expect(gate.isClosed()).toBe(true);
    advance(50);
    gate.closeFor(20); // ends earlier than the current pause: ignored
    gate.closeFor(100); // ends later: extends to 1150
    advance(60);
    expect(gate.isClosed()).toBe(true);
    advance(39);
    expect(gate.isClosed()).toBe(true);
    advance(1);
    expect(gate.isClosed()).toBe(false);
    expect(events).toEqual(['close@1000', 'close@1050', 'open@1150']);
  });

  it('never reopens before the end, even if its timer fires early', () => {
    vi.useFakeTimers();
    let nowMs = 0;
    const opened: number[] = [];
    const gate = new PauseGate({ onClose: () => undefined, onOpen: () => opened.push(nowMs) }, () => nowMs);
    gate.closeFor(100);
    // The timer fires at 100 fake-ms while the clock says 98: it must wait again.
    nowMs = 98;
    vi.advanceTimersByTime(100);
    expect(opened).toEqual([]);
    nowMs = 100;
    vi.advanceTimersByTime(2);
    expect(opened).toEqual([100]);
  });

  it('dispose() keeps it from ever reopening', () => {
    vi.useFakeTimers();
    let nowMs = 0;
    const onOpen = vi.fn();
    const gate = new PauseGate({ onClose: () => undefined, onOpen }, () => nowMs);
    gate.closeFor(10);
    gate.dispose();
    nowMs = 100;
    vi.advanceTimersByTime(100);
    expect(onOpen).not.toHaveBeenCalled();
  });
});
