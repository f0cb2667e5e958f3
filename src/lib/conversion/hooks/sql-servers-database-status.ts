import type { ServersDatabase_STATUS_ConversionHooks } from '../../../../generated/sql/v1api20140401storage/hooks.ts';
import { maxSizeBytesDown, maxSizeBytesUp } from './max-size-bytes.ts';

/**
 * Hand-written steps for ServersDatabase statuses between 2014-04-01 and 2021-11-01: `maxSizeBytes` turned
 * from a decimal string into an integer. Edition and service objective stay in the bag: status is what Azure
 * reports, and the 2021-11-01 status reports its own sku.
 */
export const serversDatabaseStatusHooks: ServersDatabase_STATUS_ConversionHooks = {
  assignTo(_source, destination, bag) {
    maxSizeBytesUp(bag, (value) => {
      destination.maxSizeBytes = value;
    });
  },
  assignFrom(_source, destination, bag) {
    maxSizeBytesDown(bag, (value) => {
      destination.maxSizeBytes = value;
    });
  },
};
