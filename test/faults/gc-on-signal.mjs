// Test-only preload for the fault suite (never loaded by `npm start`): with node --expose-gc,
// SIGUSR2 runs a full garbage collection, so that the suite compares the gateway's RSS after a
// collection rather than wherever V8's collector happened to be.
process.on("SIGUSR2", () => {
  globalThis.gc?.();
});
