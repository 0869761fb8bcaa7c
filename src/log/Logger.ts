/**
 * What the code logs through: a structured object and a message, at four levels. The service's
 * pino logger (createLogger) fits; a test passes anything that records the calls.
 */
export interface Logger {
  debug(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}
