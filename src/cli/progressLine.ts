import { sanitizeText } from '../errors/sanitizeText.js';

/**
 * A single self-rewriting status line on stderr, only when stderr is a terminal: nothing in CI,
 * in logs or when piped. Redraws at most every 100 ms. The message is cleaned by sanitizeText
 * and cut to the width: it may name upstream values, and a line break or an escape sequence in
 * it would break the redraw or drive the terminal.
 */
export function progressLine(stream: NodeJS.WriteStream = process.stderr): { update(message: string): void; done(): void } {
  if (!stream.isTTY) return { update: () => {}, done: () => {} };
  let last = 0;
  let shown = false;
  return {
    update(message) {
      const now = Date.now();
      if (now - last < 100) return;
      last = now;
      shown = true;
      stream.write(`\r\x1b[2K${sanitizeText(message, Math.max(1, (stream.columns ?? 80) - 1))}`);
    },
    done() {
      if (shown) stream.write('\r\x1b[2K');
    },
  };
}
