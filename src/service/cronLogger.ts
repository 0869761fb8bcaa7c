import type { Logger } from '../log/Logger.js';

/** The logger interface node-cron takes (its TaskOptions `logger`). */
export interface CronLogger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string | Error, err?: Error): void;
  debug(message: string | Error, err?: Error): void;
}

/**
 * node-cron's own messages (a tick skipped because the job still runs, a missed tick) as log lines
 * of the service, with the job's name. Its default logger writes colored text to the console,
 * which breaks a stream of JSON lines.
 */
export function cronLogger(logger: Logger, job: string): CronLogger {
  const withError = (message: string | Error, err?: Error) => {
    const error = err ?? (message instanceof Error ? message : undefined);
    return [error === undefined ? { job } : { job, err: error }, message instanceof Error ? message.message : message] as const;
  };
  return {
    info: (message) => logger.info({ job }, message),
    warn: (message) => logger.warn({ job }, message),
    error: (message, err) => logger.error(...withError(message, err)),
    debug: (message, err) => logger.debug(...withError(message, err)),
  };
}
