/**
 * Why `value` cannot be sent as an HTTP header value as it is, or undefined when it can: printable
 * ASCII only (what RFC 9110 allows, less obs-text, whose bytes servers read differently), and no
 * space at either end (it would be stripped in transit). Says where, never what.
 */
export function headerValueProblem(value: string): string | undefined {
  const bad = /[^\x20-\x7e]/.exec(value);
  if (bad) {
    const code = bad[0].charCodeAt(0);
    const what =
      code === 0x0a || code === 0x0d ? 'a line break' : code < 0x20 || code === 0x7f ? 'a control character' : 'a non-ASCII character';
    return `contains ${what} at character ${bad.index + 1}`;
  }
  if (value !== value.trim()) return 'starts or ends with a space';
  if (value === '') return 'is empty';
  return undefined;
}
