import type { ContractChange } from './types.js';

/** One line per change against today's contract, as `status` prints it: `new field pricing.fee (number)`. */
export function describeChange(change: Pick<ContractChange, 'kind' | 'path' | 'detail'>): string {
  const where = change.path === '' ? 'the record' : change.path;
  switch (change.kind) {
    case 'new_field':
      return `new field ${where} (${change.detail})`;
    case 'field_gone':
      return `field gone: ${where} (was ${change.detail})`;
    case 'changed_type':
      return `changed type of ${where}: ${change.detail}`;
    case 'new_value':
      return `new value of ${where}: ${change.detail}`;
  }
}
