// Preloaded into the measured child (`node --import ./bench/support/reportMaxRss.mjs ...`): at
// exit, prints the process's peak resident set size (getrusage ru_maxrss, kept by the kernel) and
// its CPU time (user and system, µs) on stderr, where the benchmark reads them. Plain JavaScript,
// so that measuring the compiled CLI loads no TypeScript loader. Writes to a pipe are synchronous
// on Linux: the lines survive process.exit().
process.on('exit', () => {
  const usage = process.resourceUsage();
  process.stderr.write(`bench-max-rss-kb ${usage.maxRSS}\nbench-cpu-us ${usage.userCPUTime} ${usage.systemCPUTime}\n`);
});
