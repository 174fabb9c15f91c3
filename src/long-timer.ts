// Node's timers hold at most 2^31 - 1 ms (about 24.8 days): a longer delay is not waited for
// but fires after 1 ms, so RETENTION_INTERVAL=25d ran a pass every millisecond. A setting
// accepts longer durations (docs/design.md section 14: a duration a setting accepts is
// honoured however long), so a long wait is a chain of timers, none longer than Node holds.
// The timers are unref'd: waiting on them keeps no process alive.

/** The longest delay one Node timer waits for. */
export const LONGEST_TIMER_MS = 2 ** 31 - 1;

export interface LongTimer {
  clear(): void;
}

/** `callback` once, `ms` from now, however long that is. */
export function setLongTimeout(callback: () => void, ms: number): LongTimer {
  let timer: NodeJS.Timeout | undefined;
  let cleared = false;
  const wait = (remaining: number) => {
    timer = setTimeout(
      () => {
        if (cleared) return;
        if (remaining > LONGEST_TIMER_MS) wait(remaining - LONGEST_TIMER_MS);
        else callback();
      },
      Math.max(0, Math.min(remaining, LONGEST_TIMER_MS)),
    );
    timer.unref();
  };
  wait(ms);
  return {
    clear() {
      cleared = true;
      clearTimeout(timer);
    },
  };
}

/** `callback` every `ms`, however long that is. */
export function setLongInterval(callback: () => void, ms: number): LongTimer {
  let current: LongTimer;
  const next = () => {
    current = setLongTimeout(() => {
      next();
      callback();
    }, ms);
  };
  next();
  return { clear: () => current.clear() };
}
