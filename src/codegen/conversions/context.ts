import type { GeneratorConfig } from '../model/config.ts';
import type { PackageDef, TypeDef } from '../model/types.ts';
import { armDate } from '../model/versions.ts';
import type { Direction } from './plan-types.ts';

/**
 * What handlers know about the pair of packages they convert between: the packages, the direction, which
 * end is older, and the config renames that apply across this link.
 */
export class PairContext {
  readonly source: PackageDef;
  readonly destination: PackageDef;
  readonly direction: Direction;
  private readonly config: GeneratorConfig;
  /** Asks the planner for the function converting a nested object type pair; returns its name. */
  readonly requestObject: (sourceType: string, destType: string) => string;

  constructor(
    config: GeneratorConfig,
    source: PackageDef,
    destination: PackageDef,
    direction: Direction,
    requestObject: (sourceType: string, destType: string) => string,
  ) {
    this.config = config;
    this.source = source;
    this.destination = destination;
    this.direction = direction;
    this.requestObject = requestObject;
  }

  /** The older and newer package of this link (equal dates for spoke <-> storage). */
  get older(): PackageDef {
    return this.direction === 'down' ? this.destination : this.source;
  }

  get newer(): PackageDef {
    return this.direction === 'down' ? this.source : this.destination;
  }

  /**
   * True when a change introduced at `apiVersion` lies on this link (older < apiVersion <= newer). A preview
   * joins the stable version before it, so its link runs backward in time: a change declared at the
   * preview itself lies on that link.
   */
  spans(group: string, apiVersion: string): boolean {
    if (group !== this.source.group) return false;
    if (this.direction !== 'up' && this.direction !== 'down') return false;
    const at = armDate(apiVersion);
    const older = armDate(this.older.armApiVersion);
    const newer = armDate(this.newer.armApiVersion);
    if (older > newer) return apiVersion === this.older.armApiVersion;
    return older < at && at <= newer;
  }

  /** The renamed counterpart of a source property name on this link, if the config declares one. */
  renamedProperty(sourceType: string, property: string): string | undefined {
    for (const r of this.config.renames.properties) {
      if (!this.spans(r.group, r.apiVersion) || !sameType(r.type, sourceType)) continue;
      const [from, to] = this.direction === 'down' ? [r.to, r.from] : [r.from, r.to];
      if (from.toLowerCase() === property.toLowerCase()) return to;
    }
    return undefined;
  }

  /** Seed 000: object types match by case-insensitive name, extended by config type renames. */
  typesMatch(sourceType: string, destType: string): boolean {
    if (sourceType.toLowerCase() === destType.toLowerCase()) return true;
    for (const r of this.config.renames.types) {
      if (!this.spans(r.group, r.apiVersion)) continue;
      const [from, to] = this.direction === 'down' ? [r.to, r.from] : [r.from, r.to];
      if (sameType(from, sourceType) && sameType(to, destType) && suffix(sourceType) === suffix(destType))
        return true;
    }
    return false;
  }

  sourceType(name: string): TypeDef | undefined {
    return this.source.types.get(name);
  }

  destType(name: string): TypeDef | undefined {
    return this.destination.types.get(name);
  }
}

/** A config type name matches the type and its `_STATUS` twin, case-insensitively. */
export function sameType(configured: string, actual: string): boolean {
  const a = actual.toLowerCase();
  const c = configured.toLowerCase();
  return a === c || a === `${c}_status`;
}

function suffix(name: string): string {
  return name.toLowerCase().endsWith('_status') ? '_status' : '';
}
