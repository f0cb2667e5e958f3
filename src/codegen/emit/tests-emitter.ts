import type { KindGraph } from '../conversions/graph.ts';
import type { HookConfig } from '../model/config.ts';
import type { PackageDef } from '../model/types.ts';
import { tsHeader } from './code.ts';
import { exemplar } from './exemplar.ts';

/**
 * The generated tests of one kind (seed 000, Testing): a round trip per spoke version, a reliability test
 * per ordered pair of spoke versions, and two golden tests per hook touching the kind.
 */
export function emitKindTests(
  graph: KindGraph,
  groupName: string,
  hooks: readonly HookConfig[],
  lookup: (version: string) => PackageDef,
): string {
  const out: string[] = [tsHeader()];
  out.push(`/** Generated conversion tests of ${graph.kind}.${groupName}. */\n`);
  out.push(`import fc from 'fast-check';\nimport { describe, it } from 'vitest';\n`);
  out.push(`import { convert } from '../../../src/lib/conversion/convert.ts';\n`);
  out.push(
    `import { expectGolden, expectRoundTrip, reliabilityRuns, roundTripRuns } from '../../../test/lib/conversion/support.ts';\n`,
  );
  for (const v of graph.apiVersions) out.push(`import * as ${v} from '../${v}/arbitraries.ts';\n`);
  out.push(`\nconst hub = '${graph.hub}';\n`);
  out.push(`\ndescribe('${graph.kind} round trip through the hub (${graph.hub})', () => {\n`);
  for (const v of graph.apiVersions) {
    out.push(`  it('${v} -> hub -> ${v} loses nothing', () => {\n`);
    out.push(
      `    fc.assert(fc.property(${v}.${graph.kind}(), (object) => expectRoundTrip(convert(convert(object, hub), '${v}'), object)), { numRuns: roundTripRuns });\n  });\n`,
    );
  }
  out.push('});\n');
  if (graph.apiVersions.length > 1) {
    out.push(`\ndescribe('${graph.kind} reliability between spoke versions', () => {\n`);
    for (const a of graph.apiVersions) {
      for (const b of graph.apiVersions) {
        if (a === b) continue;
        out.push(`  it('${a} -> hub -> ${b} never throws', () => {\n`);
        out.push(
          `    fc.assert(fc.property(${a}.${graph.kind}(), (object) => { convert(convert(object, hub), '${b}'); }), { numRuns: reliabilityRuns });\n  });\n`,
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
