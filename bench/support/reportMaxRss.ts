/**
 * Preloaded into the measured child (`node --import tsx --import ./bench/support/reportMaxRss.ts ...`):
 * at exit, prints the process's peak resident set size (getrusage ru_maxrss, exact, kernel-kept)
 * on stderr, where the benchmark reads it. Writes to a pipe are synchronous on Linux, so the line
 * survives process.exit().
 */
process.on('exit', () => {
  process.stderr.write(`bench-max-rss-kb ${process.resourceUsage().maxRSS}\n`);
});
