import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LONGEST_TIMER_MS, setLongInterval, setLongTimeout } from './long-timer.ts';

const DAY = 86_400_000;

// Vitest's fake timers fire a delay beyond Node's limit after 1 ms, as Node does.
beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('setLongTimeout', () => {
  it('waits the whole delay when it is beyond what one timer holds', () => {
    const fired = vi.fn();
    setLongTimeout(fired, 60 * DAY);
    vi.advanceTimersByTime(LONGEST_TIMER_MS + 1);
    expect(fired).not.toHaveBeenCalled();
    vi.advanceTimersByTime(60 * DAY - LONGEST_TIMER_MS - 2);
    expect(fired).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fired).toHaveBeenCalledTimes(1);
  });

  it('fires nothing once cleared, in any of its parts', () => {
    const fired = vi.fn();
    const timer = setLongTimeout(fired, 60 * DAY);
    vi.advanceTimersByTime(30 * DAY);
    timer.clear();
    vi.advanceTimersByTime(60 * DAY);
    expect(fired).not.toHaveBeenCalled();
  });
});

describe('setLongInterval', () => {
  it('runs every 25 days, not every millisecond', () => {
    const fired = vi.fn();
    const timer = setLongInterval(fired, 25 * DAY);
    vi.advanceTimersByTime(25 * DAY - 1);
    expect(fired).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fired).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(50 * DAY);
    expect(fired).toHaveBeenCalledTimes(3);
    timer.clear();
    vi.advanceTimersByTime(100 * DAY);
    expect(fired).toHaveBeenCalledTimes(3);
  });

  it('runs a short interval as setInterval would', () => {
    const fired = vi.fn();
    setLongInterval(fired, 1000);
    vi.advanceTimersByTime(10_000);
    expect(fired).toHaveBeenCalledTimes(10);
  });
});
