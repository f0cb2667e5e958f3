import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { argoCdHealthRules } from '../../../src/lib/health-rules/argocd.ts';
import { NoAsoKinds, UnknownRuleKind } from '../../../src/lib/health-rules/errors.ts';
import { fluxHealthRules } from '../../../src/lib/health-rules/flux.ts';
import { type RuleKind, releaseKinds } from '../../../src/lib/health-rules/kinds.ts';
import { ManifestError } from '../../../src/lib/manifests/errors.ts';
import {
  evaluateRules,
  evaluatorToolchainPresent,
  gitopsEvaluatorBinary,
} from '../../fixtures/gitops-evaluator.ts';
import { sharedData } from '../../fixtures/shared-data.ts';

const neededBy = 'test/lib/health-rules/release-crds.test.ts (the CRDs of ASO v2.20.0)';
const crds = sharedData('real-aso-crds/v2.20.0', neededBy);
const topLevel = sharedData('real-aso-crds', neededBy);
const toolchain = evaluatorToolchainPresent(neededBy);

describe('the kinds of a release read from its CRD files', () => {
  it('is a NoAsoKinds error for a folder without ASO CRDs', () => {
    const dir = mkdtempSync(join(tmpdir(), 'health-rules-'));
    writeFileSync(
      join(dir, 'other.yaml'),
      'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nspec: {group: example.com, names: {kind: Thing}}\n',
    );
    expect(() => releaseKinds(dir)).toThrow(NoAsoKinds);
  });

  it('names the file and line of malformed YAML', () => {
    const dir = mkdtempSync(join(tmpdir(), 'health-rules-'));
    writeFileSync(join(dir, 'bad.yaml'), 'kind: CustomResourceDefinition\nspec: [unclosed\n');
    expect(() => releaseKinds(dir)).toThrow(ManifestError);
    expect(() => releaseKinds(dir)).toThrow(/bad\.yaml:\d+/);
  });
});

describe.runIf(topLevel.present)('--kind over CRD files', () => {
  it('selects kinds with --kind as status does (kind, plural, kind.group), and refuses a name that matches none', () => {
    const selected = releaseKinds(topLevel.path, [
      'resourcegroups',
      'flexibleserversdatabase.dbforpostgresql.azure.com',
    ]);
    expect(selected.map((kind) => `${kind.group}_${kind.kind}`)).toEqual([
      'dbforpostgresql.azure.com_FlexibleServersDatabase',
      'resources.azure.com_ResourceGroup',
    ]);
    expect(() => releaseKinds(topLevel.path, ['ResourceGroup', 'NoSuchKind'])).toThrow(UnknownRuleKind);
    expect(() => releaseKinds(topLevel.path, ['NoSuchKind'])).toThrow(
      /--kind NoSuchKind in .*real-aso-crds \(3 ASO types there\)/,
    );
  });
});

describe.runIf(crds.present && toolchain)('health rules for every kind of ASO v2.20.0', () => {
  let kinds: RuleKind[];

  beforeAll(async () => {
    kinds = releaseKinds(crds.path);
    await gitopsEvaluatorBinary();
  }, 600_000);

  it('has one rule per kind, all 283, sorted by group then kind', () => {
    expect(kinds).toHaveLength(283);
    const keys = kinds.map((kind) => `${kind.group}_${kind.kind}`);
    expect(new Set(keys).size).toBe(283);
    expect(keys).toEqual(
      [...kinds]
        .sort((a, b) => a.group.localeCompare(b.group) || a.kind.localeCompare(b.kind))
        .map((kind) => `${kind.group}_${kind.kind}`),
    );
    expect(kinds.every((kind) => kind.version !== '' && !kind.version.endsWith('storage'))).toBe(true);
  });

  it('gives Lua that parses and CEL that compiles, for every kind', async () => {
    const argo = argoCdHealthRules(kinds, 'helm-values');
    if (!('configs' in argo)) throw new Error('expected the Helm values layout');
    const flux = fluxHealthRules(kinds).spec.healthCheckExprs;
    expect(Object.keys(argo.configs.cm)).toHaveLength(283);
    expect(flux).toHaveLength(283);
    const rules = kinds.map((kind, index) => {
      const entry = flux[index];
      expect(entry?.apiVersion).toBe(`${kind.group}/${kind.version}`);
      return {
        id: `${kind.group}_${kind.kind}`,
        lua: argo.configs.cm[`resource.customizations.health.${kind.group}_${kind.kind}`] ?? '',
        cel: {
          current: entry?.current ?? '',
          inProgress: entry?.inProgress ?? '',
          failed: entry?.failed ?? '',
        },
      };
    });
    const answers = await evaluateRules(rules, []);
    const broken = answers.filter((answer) => answer.luaError || (answer.celErrors ?? []).length > 0);
    expect(answers).toHaveLength(283);
    expect(broken).toEqual([]);
  });
});
