import { emitConversions as emitPackageConversions } from '../emit/conversions-emitter.ts';
import { emitHooks } from '../emit/hooks-emitter.ts';
import { fullGroup } from '../model/types.ts';
import { stage } from '../stage.ts';
import { addFile, need } from '../state.ts';

/** Writes `conversions.ts` (and `hooks.ts` where hooks exist) for every package with conversions. */
export const emitConversions = stage({
  id: 'emitConversions',
  description: 'Emit conversion functions and hook interfaces',
  needs: ['checkPlans'],
  run: (state) => {
    const config = need(state.config, 'config');
    for (const plan of need(state.plans, 'plans')) {
      const dir = `${plan.group}/${plan.version}`;
      addFile(
        state,
        `${dir}/conversions.ts`,
        emitPackageConversions(plan, fullGroup(plan.group, config.groupSuffix)),
      );
      const hooks = emitHooks(plan);
      if (hooks) addFile(state, `${dir}/hooks.ts`, hooks);
    }
  },
});
