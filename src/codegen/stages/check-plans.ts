import { sameType } from '../conversions/context.ts';
import type { PlannedConversion } from '../conversions/planner.ts';
import type { GeneratorConfig } from '../model/config.ts';
import { armDate } from '../model/versions.ts';
import { stage } from '../stage.ts';
import { need } from '../state.ts';
import { configFile } from './load-config.ts';

/**
 * Refuses plans a human has not reviewed (seed 000, metadata design): a property that disappears on the
 * way to a newer version must be listed under `removals`; a property that changes type in a way no rule
 * converts must have a hook; and every configured hook or removal must still apply to something.
 */
export const checkPlans = stage({
  id: 'checkPlans',
  description: 'Check removals are acknowledged and type changes have hooks',
  needs: ['planConversions'],
  run: (state) => {
    const config = need(state.config, 'config');
    const conversions = need(state.plans, 'plans').flatMap((p) => p.types as PlannedConversion[]);
    const problems: string[] = [];
    const usedRemovals = new Set<number>();
    for (const c of conversions) {
      if (c.direction !== 'up' || armDate(c.olderArmVersion) === armDate(c.newerArmVersion)) continue;
      for (const step of c.steps) {
        if (step.kind !== 'stash' || step.typeChange) continue;
        const index = acknowledgement(config, c, step.source);
        if (index === undefined) {
          problems.push(
            `${c.group}: ${c.sourceType}.${step.source} exists at ${c.olderArmVersion} but not at ${c.newerArmVersion} ` +
              `(${c.sourceVersion} -> ${c.destVersion}); review it and add a rename or a removal to ${state.schemasDir}/${configFile}`,
          );
        } else usedRemovals.add(index);
      }
      for (const change of c.typeChanges) {
        if (!c.hook) {
          problems.push(
            `${c.group}: ${c.sourceType}.${change.property} changes from ${change.from} to ${change.to} between ` +
              `${c.olderArmVersion} and ${c.newerArmVersion}; no rule converts it: add a hook to ${state.schemasDir}/${configFile}`,
          );
        }
      }
    }
    config.removals.forEach((r, i) => {
      if (!usedRemovals.has(i))
        problems.push(`removal ${r.group}/${r.type}@${r.apiVersion} matches no property that disappears`);
    });
    for (const hook of config.hooks) {
      if (!conversions.some((c) => c.hook?.config === hook)) {
        problems.push(`hook ${hook.group}/${hook.type}@${hook.apiVersion} matches no storage conversion`);
      }
    }
    if (problems.length > 0)
      throw new Error(`${problems.length} unreviewed change(s):\n  ${problems.join('\n  ')}`);
  },
});

function acknowledgement(
  config: GeneratorConfig,
  c: PlannedConversion,
  property: string,
): number | undefined {
  // A preview joins the stable version before it (build-conversion-graph.ts), back in time: what only the
  // preview has is acknowledged by an entry at the preview's own API version.
  const backward = armDate(c.olderArmVersion) > armDate(c.newerArmVersion);
  const index = config.removals.findIndex(
    (r) =>
      r.group === c.group &&
      (sameType(r.type, c.sourceType) || sameType(r.type, c.destType)) &&
      (backward
        ? r.apiVersion === c.olderArmVersion
        : armDate(c.olderArmVersion) < armDate(r.apiVersion) &&
          armDate(r.apiVersion) <= armDate(c.newerArmVersion)) &&
      r.properties.some((p) => p.toLowerCase() === property.toLowerCase()),
  );
  return index === -1 ? undefined : index;
}
