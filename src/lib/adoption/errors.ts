import { AsoError } from '../errors.ts';

/** Objects whose owners lead back to themselves: no ARM ID can be built, and applying them would never settle. */
export class OwnerCycle extends AsoError {
  constructor(chain: string[]) {
    super('invalidInput', `owner cycle: ${chain.join(' -> ')}`);
  }
}
