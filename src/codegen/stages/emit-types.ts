import { emitTypes as emitPackageTypes } from '../emit/types-emitter.ts';
import { stage } from '../stage.ts';
import { addFile, need } from '../state.ts';

/**
 * Writes `types.ts` only for the packages a `hooks.ts` refers to: the hook interfaces are written in those
 * types and hand-written hooks are checked against them. Nothing else reads generated types (ARM payloads
 * and random objects are data), and types for every package grew with every version (issue 23's budget).
 */
export const emitTypes = stage({
  id: 'emitTypes',
  description: 'Emit types of the packages hook interfaces refer to',
  needs: ['checkPlans'],
  run: (state) => {
    const hooked = new Set<string>();
    for (const plan of need(state.plans, 'plans'))
      for (const c of plan.types)
        if (c.hook) for (const v of [c.sourceVersion, c.destVersion]) hooked.add(`${plan.group}/${v}`);
    for (const pkg of state.packages)
      if (hooked.has(`${pkg.group}/${pkg.version}`))
        addFile(state, `${pkg.group}/${pkg.version}/types.ts`, emitPackageTypes(pkg));
  },
});
