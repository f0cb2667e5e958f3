import { compileTypeConversion, type TypeConverter } from './plan-compiler.ts';
import type { GroupPlans } from './plan-table.ts';
import { convertResource, type ResourceConverter } from './resource.ts';

/** A group's conversions, compiled from its plans one function at a time, the first time each is needed. */
export interface GroupConverters {
  /** The whole-resource conversion `name` of package `version`; compiles nothing until first called. */
  resource(version: string, name: string): ResourceConverter;
  /** The type conversion `name` of package `version`, compiled now (with what it calls left lazy). */
  type(version: string, name: string): TypeConverter;
}

/**
 * Wraps a group's generated plans, which `plansOf` builds (the generated modules build their table on the
 * first call, so a run pays only for the groups it converts). Compiled functions are kept for the life of
 * the process: a migration converts thousands of objects of a few kinds, and each plan is compiled once.
 */
export function groupConverters(group: string, plansOf: () => GroupPlans): GroupConverters {
  const compiled = new Map<string, TypeConverter>();
  const type = (version: string, name: string): TypeConverter => {
    const id = `${version}/${name}`;
    let fn = compiled.get(id);
    if (fn === undefined) {
      const plans = plansOf();
      const plan = plans.packages[version]?.types[name];
      if (plan === undefined) throw new Error(`${group} has no conversion ${name} in ${version}`);
      fn = compileTypeConversion(plan, version, type, plans.hooks, name);
      compiled.set(id, fn);
    }
    return fn;
  };
  const resource = (version: string, name: string): ResourceConverter => {
    let bound: ResourceConverter | undefined;
    return (source) => {
      if (bound === undefined) {
        const plan = plansOf().packages[version]?.resources[name];
        if (plan === undefined) throw new Error(`${group} has no resource conversion ${name} in ${version}`);
        const spec = type(version, plan.spec);
        const status = type(version, plan.status);
        const apiVersion = plan.apiVersion;
        bound = (s) => convertResource(s, apiVersion, spec as never, status as never);
      }
      return bound(source);
    };
  };
  return { resource, type };
}
