// Preloaded into the service by `npm run bench -- --cpu-prof`. Node writes a --cpu-prof profile
// only on a normal exit, and the service's SIGTERM handler (Nest shutdown hooks) ends by
// re-raising the signal, which kills the process before the profile is written. SIGUSR2 is
// otherwise unused by the service, so run.ts sends it to end a profiled service cleanly.
process.on('SIGUSR2', () => process.exit(0));
