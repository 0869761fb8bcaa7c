import cliProgress from 'cli-progress';

import { sanitizeText } from '../errors/sanitizeText.js';

/** What runExport reports as it goes: a phase of `total` units (rows or files), then its advance. */
export interface ExportProgress {
  start(label: string, unit: 'rows' | 'files' | 'events', total: number): void;
  advance(units: number): void;
  /** Clears the bar (the end, or an error about to be printed). */
  stop(): void;
}

export const noProgress: ExportProgress = { start: () => {}, advance: () => {}, stop: () => {} };

/**
 * A progress bar on `stream` when it is a terminal; nothing at all otherwise (CI, logs, pipes).
 * cli-progress redraws at most 10 times a second, whatever the number of advances.
 */
export function progressBar(stream: NodeJS.WriteStream = process.stderr): ExportProgress {
  if (!stream.isTTY) return noProgress;
  const bar = new cliProgress.SingleBar(
    {
      stream,
      format: '{label} |{bar}| {percentage}% {value}/{total} {unit} | {duration_formatted}, eta {eta_formatted}',
      barsize: 30,
      hideCursor: true,
      clearOnComplete: true,
      noTTYOutput: false,
    },
    cliProgress.Presets.shades_classic,
  );
  let running = false;
  return {
    start(label, unit, total) {
      const payload = { label: sanitizeText(label, 40), unit };
      if (running) {
        bar.setTotal(total);
        bar.update(0, payload);
      } else {
        bar.start(total, 0, payload);
        running = true;
      }
    },
    advance: (units) => bar.increment(units),
    stop() {
      if (running) bar.stop();
      running = false;
    },
  };
}
