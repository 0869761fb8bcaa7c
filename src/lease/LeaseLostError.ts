/**
 * A job's lease is no longer this process's: another holder took it over, or it could not be
 * renewed before it expired. Thrown by the lease's write fence (the write rolls back) and given as
 * the reason of its `lost` signal.
 */
export class LeaseLostError extends Error {
  override name = 'LeaseLostError';
}
