import type { Checked, Rejection } from '../../src/domain/types.js';

/** The value of an accepted record; throws with the rejection's reason when it was rejected (or absent). */
export function ok<T>(checked: Checked<T> | undefined): T {
  if (checked === undefined) throw new Error('expected a record, got none');
  if (!checked.ok) throw new Error(`expected ok, got rejection: ${checked.rejection.reason}`);
  return checked.value;
}

/** The rejection of a rejected record; throws when it was accepted (or absent). */
export function rejected<T>(checked: Checked<T> | undefined): Rejection {
  if (checked === undefined) throw new Error('expected a record, got none');
  if (checked.ok) throw new Error('expected a rejection');
  return checked.rejection;
}
