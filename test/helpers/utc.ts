/** Midnight (or `hour`) UTC of a day of 2025, the year the partition and export tests place their rows in; `month` counts from 1. */
export const utc = (month: number, day = 1, hour = 0): Date => new Date(Date.UTC(2025, month - 1, day, hour));
