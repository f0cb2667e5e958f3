import { sameType } from '../conversions/context.ts';
import type { KindGraph } from '../conversions/graph.ts';
import type { GeneratorConfig, HookConfig } from '../model/config.ts';
import { isCurrentPrefix, type PackageDef, type TypeRef } from '../model/types.ts';
import { armDate } from '../model/versions.ts';
import { tsHeader } from './code.ts';
import { exemplar } from './exemplar.ts';

/**
 * The generated tests of one kind (seed 000, Testing): a round trip per spoke version and per storage
 * version below the hub, a read-modify-write per version below the hub (hub -> version -> pruned by the
 * version's CRD schema -> hub, nothing lost), a reliability test per ordered pair of spoke versions, the ARM
 * payload of random hub instances converted to each spoke version (the spec without azureName, owner and
 * bags), an up-conversion per config rename landing in the typed field, and two golden tests per hook
 * touching the kind.
 */
export function emitKindTests(
  graph: KindGraph,
  groupName: string,
  hooks: readonly HookConfig[],
  lookup: (version: string) => PackageDef,
  renames: GeneratorConfig['renames'] = { properties: [], types: [] },
  removals: GeneratorConfig['removals'] = [],
  removedVersions: readonly string[] = [],
): string {
  // A version only an earlier release served keeps every value through the hub, some in nested bags where
  // that release's compat types had them typed (the chain is the current release's): compared lifted.
  const kept = (v: string) => (removedVersions.includes(v) ? 'expectValuesKept' : 'expectRoundTrip');
  const out: string[] = [tsHeader()];
  const storageBelowHub = graph.storageVersions.filter((v) => v !== graph.hub);
  out.push(`/** Generated conversion tests of ${graph.kind}.${groupName}. */\n`);
  out.push(`import fc from 'fast-check';\nimport { describe, expect, it } from 'vitest';\n`);
  out.push(`import { convert, convertKeepingLeftovers } from '../../../src/lib/conversion/convert.ts';\n`);
  out.push(
    `import { armRuns, bagNames, crdSchema, expectArmPayload, expectGolden, expectNoBags, expectRoundTrip, ${removedVersions.length > 0 ? 'expectValuesKept, ' : ''}pruneToSchema, reliabilityRuns, rmwRuns, roundTripRuns, storageRuns, valueAt${hooks.some((h) => h.lossy.length > 0) ? ', withoutPaths' : ''} } from '../../../src/testing/conversion-support.ts';\n`,
  );
  out.push(`import { arbitraryOf } from '../../../src/testing/shape-arbitrary.ts';\n`);
  for (const v of graph.apiVersions) out.push(`import * as ${v}_arm from '../${v}/arm.ts';\n`);
  out.push(`import { shapes } from '../shapes.ts';\n`);
  out.push(`\nconst hub = '${graph.hub}';\n`);
  out.push(
    `\n/** A random ${graph.kind} at a version, from the group's shapes. */\nconst random = (version: string) => arbitraryOf(shapes, version, '${graph.kind}');\n`,
  );
  out.push(`\ndescribe('${graph.kind} round trip through the hub (${graph.hub})', () => {\n`);
  // A version only an earlier release served is left out here: through the hub, some of its values end in
  // nested bags where that release's compat types kept them typed (the chain is the current release's). Its
  // round trips are held to that release's own conversions (removed-versions-vs-operator.test.ts) instead.
  for (const v of graph.apiVersions.filter((version) => !removedVersions.includes(version))) {
    // What a type without a bag cannot hold (unknown extras of an API version or inside a runtime type) is
    // dropped, as the operator drops it; kept as leftovers, nothing may be missing.
    out.push(`  it('${v} -> hub -> ${v} loses nothing but what the operator drops too', () => {\n`);
    out.push(
      `    fc.assert(fc.property(random('${v}'), (object) => { expectRoundTrip(convertKeepingLeftovers(convertKeepingLeftovers(object, hub), '${v}'), object); expectNoBags(convert(convert(object, hub), '${v}')); }), { numRuns: roundTripRuns });\n  });\n`,
    );
  }
  for (const v of storageBelowHub.filter((version) => !removedVersions.includes(version))) {
    // Unknown keys inside a runtime type (an extra named as another version's reference) are dropped as the
    // operator drops them; kept as leftovers, nothing may be missing.
    out.push(`  it('${v} (old storage) -> hub -> ${v} loses nothing', () => {\n`);
    out.push(
      `    fc.assert(fc.property(random('${v}'), (object) => expectRoundTrip(convertKeepingLeftovers(convertKeepingLeftovers(object, hub), '${v}'), object)), { numRuns: storageRuns });\n  });\n`,
    );
  }
  out.push('});\n');
  out.push(
    `\ndescribe('${graph.kind} read-modify-write at each version: hub -> version -> pruned by its CRD schema -> hub', () => {\n`,
  );
  out.push(
    `  const stored = () => random(hub).map((o) => pruneToSchema(o, crdSchema('${groupName}', '${graph.kind}', hub)) as Record<string, unknown>);\n`,
  );
  for (const v of [...graph.apiVersions, ...storageBelowHub]) {
    // An API version keeps what it can type (hub-only values are dropped, as the operator drops them): its
    // CRD schema must prune none of it. A storage variant keeps everything, in its bags.
    const api = graph.apiVersions.includes(v);
    // The object at `v` is converted once; pruneToSchema copies, so the unpruned one stays for `expected`.
    const expected = api ? 'convert(there, hub)' : 'object';
    // A hook whose operator step loses something on the trip below it: those paths are its own test's.
    const lossy = hooks
      .filter((h) => h.lossy.length > 0 && armDate(lookup(v).armApiVersion) < armDate(h.apiVersion))
      .flatMap((h) => h.lossy);
    const actual = `convert(pruneToSchema(there, crdSchema('${groupName}', '${graph.kind}', '${v}')), hub)`;
    const compared =
      lossy.length === 0
        ? `${actual}, ${expected}`
        : `withoutPaths(${actual}, ${JSON.stringify(lossy)}), withoutPaths(${expected}, ${JSON.stringify(lossy)})`;
    out.push(`  it('${v} ${api ? 'keeps every value it holds' : 'keeps every hub value'}', () => {\n`);
    out.push(
      `    fc.assert(fc.property(stored(), (object) => { const there = convert(object, '${v}'); ${kept(v)}(${compared}); }), { numRuns: rmwRuns });\n  });\n`,
    );
  }
  out.push('});\n');
  out.push(`\ndescribe('${graph.kind} ARM payloads of random instances converted from the hub', () => {\n`);
  for (const v of graph.apiVersions) {
    out.push(
      `  it('${v}: azureName defaults and the ARM body is the spec without azureName, owner and bags', () => {\n`,
    );
    out.push(
      `    fc.assert(fc.property(random(hub), (object) => expectArmPayload(convert(object, '${v}'), ${v}_arm.${graph.kind}_armLayout)), { numRuns: armRuns });\n  });\n`,
    );
  }
  out.push('});\n');
  const renameTests = emitRenameTests(graph, groupName, lookup, renames, removals);
  if (renameTests) out.push(renameTests);
  if (graph.apiVersions.length > 1) {
    out.push(`\ndescribe('${graph.kind} reliability between spoke versions', () => {\n`);
    for (const a of graph.apiVersions) {
      for (const b of graph.apiVersions) {
        if (a === b) continue;
        out.push(`  it('${a} -> hub -> ${b} never throws', () => {\n`);
        out.push(
          `    fc.assert(fc.property(random('${a}'), (object) => { convert(convert(object, hub), '${b}'); }), { numRuns: reliabilityRuns });\n  });\n`,
        );
      }
    }
    out.push('});\n');
  }
  const latest =
    [...graph.apiVersions].reverse().find((v) => !v.includes('preview')) ?? graph.apiVersions.at(-1);
  if (hooks.length > 0 && latest) {
    out.push(`\ndescribe('${graph.kind} golden conversions around hand-written hooks', () => {\n`);
    for (const older of graph.apiVersions.filter(
      (v) => v !== latest && lookup(v).armApiVersion < (hooks[0]?.apiVersion ?? ''),
    )) {
      const from = resourceExemplar(lookup(older), graph.kind, groupName);
      const to = resourceExemplar(lookup(latest), graph.kind, groupName);
      out.push(`  it('${older} exemplar up-converts to ${latest} as recorded', () => {\n`);
      out.push(`    const exemplar = ${JSON.stringify(from)};\n`);
      out.push(
        `    expectGolden('${graph.group}/${graph.kind}.${older}-to-${latest}.json', convert(exemplar, '${latest}'));\n  });\n`,
      );
      out.push(`  it('${latest} exemplar down-converts to ${older} as recorded', () => {\n`);
      out.push(`    const exemplar = ${JSON.stringify(to)};\n`);
      out.push(
        `    expectGolden('${graph.group}/${graph.kind}.${latest}-to-${older}.json', convert(exemplar, '${older}'));\n  });\n`,
      );
    }
    out.push('});\n');
  }
  return out.join('');
}

/**
 * One test per config rename reaching this kind: the exemplar of the last version before the rename,
 * converted up to the version that introduced it (its storage variant and the API version), has the value
 * in the renamed typed field, not in a property bag.
 */
function emitRenameTests(
  graph: KindGraph,
  groupName: string,
  lookup: (version: string) => PackageDef,
  renames: GeneratorConfig['renames'],
  removals: GeneratorConfig['removals'],
): string | undefined {
  const lines: string[] = [];
  const around = (apiVersion: string) => {
    const at = armDate(apiVersion);
    const ga = graph.apiVersions.filter((v) => isCurrentPrefix(lookup(v).prefix) && !lookup(v).preview);
    const newer = ga.find((v) => lookup(v).armApiVersion === apiVersion);
    const older = [...ga].reverse().find((v) => armDate(lookup(v).armApiVersion) < at);
    return newer && older ? { newer, older } : undefined;
  };
  for (const r of renames.properties.filter((x) => x.group === graph.group)) {
    const pair = around(r.apiVersion);
    if (!pair) continue;
    const pkg = lookup(pair.older);
    const example = resourceExemplar(pkg, graph.kind, groupName);
    for (const { path } of pathsTo(pkg, graph.kind, (name) => sameType(r.type, name))) {
      const from = [...path, r.from];
      const to = [...path, r.to];
      lines.push(
        renameTest(
          `${r.type}.${r.from} -> ${r.to} (${r.apiVersion}) at ${path.join('.')}`,
          pair,
          example,
          from,
          to,
          r.from,
        ),
      );
    }
  }
  for (const r of renames.types.filter((x) => x.group === graph.group)) {
    const pair = around(r.apiVersion);
    if (!pair) continue;
    const pkg = lookup(pair.older);
    const example = resourceExemplar(pkg, graph.kind, groupName);
    // What reviewed removals take out below the renamed type rides in the bag, not in the typed field.
    const removed = removals.filter(
      (x) =>
        x.group === graph.group &&
        armDate(x.apiVersion) > armDate(pkg.armApiVersion) &&
        armDate(x.apiVersion) <= armDate(r.apiVersion),
    );
    for (const { path, type: typeName } of pathsTo(pkg, graph.kind, (name) => sameType(r.from, name))) {
      const name = path.at(-1);
      if (typeof name !== 'string') continue;
      lines.push(
        renameTest(
          `type ${r.from} -> ${r.to} (${r.apiVersion}) at ${path.join('.')}`,
          pair,
          example,
          path,
          path,
          name,
          (value) => withoutRemoved(value, typeName, pkg, removed),
        ),
      );
    }
  }
  if (lines.length === 0) return undefined;
  return `\ndescribe('${graph.kind} config renames land in the typed field', () => {\n${lines.join('')}});\n`;
}

function renameTest(
  title: string,
  pair: { older: string; newer: string },
  example: Record<string, unknown>,
  from: readonly (string | number)[],
  to: readonly (string | number)[],
  name: string,
  expectedOf?: (value: unknown) => unknown,
): string {
  const value = valueAtPath(example, from);
  const expected = expectedOf === undefined || value === undefined ? undefined : expectedOf(value);
  const expectation =
    expected === undefined || JSON.stringify(expected) === JSON.stringify(value)
      ? 'value as object'
      : JSON.stringify(expected);
  return (
    `  it('${title}: ${pair.older} -> ${pair.newer}', () => {\n` +
    `    const exemplar = ${JSON.stringify(example)};\n` +
    `    const value = valueAt(exemplar, ${JSON.stringify(from)});\n    expect(value).toBeDefined();\n` +
    `    for (const target of ['${pair.newer}storage', '${pair.newer}']) {\n` +
    `      const up = convert(exemplar, target);\n` +
    `      expect(valueAt(up, ${JSON.stringify(to)}), target).toMatchObject(${expectation});\n` +
    `      expect(bagNames(up), target).not.toContain(${JSON.stringify(name)});\n    }\n  });\n`
  );
}

/**
 * Paths (from the resource root, arrays at index 0) to the objects of a type matching `match` in a kind's
 * spec and status, in one package, each with the name of the type it reaches.
 */
export function pathsTo(
  pkg: PackageDef,
  kind: string,
  match: (typeName: string) => boolean,
): { path: (string | number)[]; type: string }[] {
  const r = pkg.resources.find((x) => x.kind === kind);
  if (!r) return [];
  const out: { path: (string | number)[]; type: string }[] = [];
  const walk = (ref: TypeRef, path: (string | number)[], seen: ReadonlySet<string>): void => {
    if (ref.kind === 'array') {
      walk(ref.element, [...path, 0], seen);
      return;
    }
    if (ref.kind !== 'object' || seen.has(ref.name)) return;
    if (match(ref.name)) out.push({ path, type: ref.name });
    const def = pkg.types.get(ref.name);
    if (def?.kind !== 'object') return;
    for (const p of def.properties) walk(p.type, [...path, p.name], new Set([...seen, ref.name]));
  };
  walk({ kind: 'object', name: r.specType }, ['spec'], new Set());
  walk({ kind: 'object', name: r.statusType }, ['status'], new Set());
  return out;
}

function resourceExemplar(pkg: PackageDef, kind: string, groupName: string): Record<string, unknown> {
  const r = pkg.resources.find((x) => x.kind === kind);
  if (!r) throw new Error(`${pkg.version} has no ${kind}`);
  return {
    apiVersion: `${groupName}/${pkg.version}`,
    kind,
    metadata: { name: 'exemplar' },
    spec: exemplar(pkg, r.specType),
    status: exemplar(pkg, r.statusType),
  };
}

/** The value at a path of an exemplar (arrays at index 0), as the generated tests' `valueAt` reads it. */
function valueAtPath(value: unknown, path: readonly (string | number)[]): unknown {
  let at = value;
  for (const key of path) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<string | number, unknown>)[key];
  }
  return at;
}

/** An exemplar value of `typeName` without the properties `removals` take out anywhere below it. */
function withoutRemoved(
  value: unknown,
  typeName: string,
  pkg: PackageDef,
  removals: GeneratorConfig['removals'],
): unknown {
  const def = pkg.types.get(typeName);
  if (def?.kind !== 'object' || value === null || typeof value !== 'object' || Array.isArray(value))
    return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (removals.some((r) => sameType(r.type, typeName) && r.properties.includes(key))) continue;
    const type = def.properties.find((p) => p.name === key)?.type;
    out[key] = type === undefined ? child : withoutRemovedIn(child, type, pkg, removals);
  }
  return out;
}

function withoutRemovedIn(
  value: unknown,
  ref: TypeRef,
  pkg: PackageDef,
  removals: GeneratorConfig['removals'],
): unknown {
  if (ref.kind === 'object') return withoutRemoved(value, ref.name, pkg, removals);
  if (ref.kind === 'array' && Array.isArray(value))
    return value.map((item) => withoutRemovedIn(item, ref.element, pkg, removals));
  if (ref.kind === 'map' && value !== null && typeof value === 'object' && !Array.isArray(value))
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, withoutRemovedIn(v, ref.value, pkg, removals)]),
    );
  return value;
}
