/**
 * Picks a field from its spec place (a nested `metadata` object) or, failing that, from the top
 * level where flattened shapes put it, and remembers whether the top level was used (a drift).
 */
export function nestedOrTopLevel() {
  let usedTopLevel = false;
  return {
    pick<T>(nested: T | null | undefined, top: T | null | undefined): T | null {
      if (nested !== null && nested !== undefined) return nested;
      if (top === null || top === undefined) return null;
      usedTopLevel = true;
      return top;
    },
    get usedTopLevel(): boolean {
      return usedTopLevel;
    },
  };
}
