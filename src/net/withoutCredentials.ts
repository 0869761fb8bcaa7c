/**
 * `url` without the `user:password@` part, if it has one; nothing else changes (the stored
 * upstream is compared as text). Works on text that is not a valid URL too.
 */
export function withoutCredentials(url: string): string {
  return url.replace(/^([a-z][a-z\d+.-]*:\/\/)[^/?#]*@/i, '$1');
}
