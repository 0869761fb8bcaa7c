/**
 * First SIGINT/SIGTERM: calls `graceful` (stop after the current page commits). A second one
 * exits at once with `forcedExitCode`. Returns a function that removes the handlers.
 */
export function onShutdownSignal(graceful: (signal: NodeJS.Signals) => void, forcedExitCode = 130): () => void {
  let received = false;
  const handler = (signal: NodeJS.Signals) => {
    if (received) {
      process.stderr.write(`prediction-ingest: second ${signal}, exiting now\n`);
      process.exit(forcedExitCode);
    }
    received = true;
    graceful(signal);
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return () => {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  };
}
