// Apart from runJob.ts, which loads the run's work: `plan` replays the service's jobs with it.

/** Items fetched per write transaction in the detail and order-book phases unless a job says otherwise (the service's jobs do not). */
export const DEFAULT_BATCH_SIZE = 50;
