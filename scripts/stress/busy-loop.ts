/**
 * One core's worth of load for `bun run test:stress`: spins until its stdin closes. The stress
 * script holds the other end, so however that script ends (a signal, a crash, SIGKILL) the pipe
 * closes with it and this process ends too: no load is left behind.
 */
export {};

(async () => {
  for await (const _ of Bun.stdin.stream()) {
    // Nothing is ever written; only the end matters.
  }
  process.exit(0);
})();

for (;;) {
  const end = performance.now() + 50;
  while (performance.now() < end) {
    // Spin: this is the load.
  }
  // A moment for the event loop, so the end of stdin is noticed.
  await new Promise((resolve) => setImmediate(resolve));
}
