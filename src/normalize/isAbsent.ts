/** JSON's two spellings of "no value": an absent key and null. */
export function isAbsent(value: unknown): value is null | undefined {
  return value === null || value === undefined;
}
