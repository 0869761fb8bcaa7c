// Preloaded into the measured child (`node --import ./bench/support/reportMaxRss.mjs ...`): at
// exit, prints the process's peak resident set size (getrusage ru_maxrss, kept by the kernel) on
// stderr, where the benchmark reads it. Plain JavaScript, so that measuring the compiled CLI loads
// no TypeScript loader. Writes to a pipe are synchronous on Linux: the line survives process.exit().
process.on('exit', () => {
  process.stderr.write(`bench-max-rss-kb ${process.resourceUsage().maxRSS}\n`);
});
