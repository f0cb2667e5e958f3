import type { ConversionPlan } from '../conversions/plan-types.ts';
import { emitHooks } from '../emit/hooks-emitter.ts';
import { emitGroupPlans } from '../emit/plans-emitter.ts';
import { fullGroup } from '../model/types.ts';
import { stage } from '../stage.ts';
import { addFile, need } from '../state.ts';

/**
 * Writes `<group>/conversion-plans.ts`, every conversion of a group as data, and `hooks.ts` in each package
 * whose conversions call hand-written hooks (the interfaces those hooks must satisfy).
 */
export const emitConversionPlans = stage({
  id: 'emitConversionPlans',
  description: 'Emit conversion plans per group and hook interfaces',
  needs: ['checkPlans'],
  run: (state) => {
    const config = need(state.config, 'config');
    const byGroup = new Map<string, ConversionPlan[]>();
    for (const plan of need(state.plans, 'plans')) {
      const list = byGroup.get(plan.group) ?? [];
      list.push(plan);
      byGroup.set(plan.group, list);
      const hooks = emitHooks(plan);
      if (hooks) addFile(state, `${plan.group}/${plan.version}/hooks.ts`, hooks);
    }
    for (const [group, plans] of [...byGroup].sort(([a], [b]) => (a < b ? -1 : 1))) {
      addFile(
        state,
        `${group}/conversion-plans.ts`,
        emitGroupPlans(plans, fullGroup(group, config.groupSuffix)),
      );
    }
  },
});
