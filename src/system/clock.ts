/** A pending timer of a `Clock`. Like a Node timer, it can stop holding the process alive and start again. */
export interface ClockTimer {
  ref(): unknown;
  unref(): unknown;
}

/**
 * Where code that waits gets the time and its timers (STYLE: time is an argument). Production uses
 * `systemClock`; a test hands in a fake it advances by hand (test/helpers/fake-clock.ts), so a
 * timeout test asserts exact bounds instead of sleeping against a real one.
 */
export interface Clock {
  /** Milliseconds on a monotonic scale; only differences mean anything. */
  now(): number;
  setTimeout(callback: () => void, ms: number): ClockTimer;
  clearTimeout(timer: ClockTimer): void;
}

export const systemClock: Clock = {
  now: () => performance.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
};
