import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  annotateArmPaths,
  armGoPackageOf,
  explicitWhenUnsetPathsOf,
  nullWhenUnsetPathsOf,
  readArmGoPackage,
} from '../../../src/codegen/import/arm-paths.ts';
import { operatorGoModule } from '../../fixtures/operator-go-module.ts';

const scratch = mkdtempSync(join(tmpdir(), 'arm-paths-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A small ARM Go package in the operator's generated layout: a rule with a union of actions. */
const goTypes = `package arm

type Rule_Spec struct {
	Name       string          \`json:"name,omitempty"\`
	Properties *RuleProperties \`json:"properties,omitempty"\`
}

func (rule Rule_Spec) GetType() string {
	return "Microsoft.Example/rules"
}

type RuleProperties struct {
	Actions    []Action    \`json:"actions,omitempty"\`
	Conditions []string    \`json:"conditions,omitempty"\`
	Tags       []string    \`json:"tags,omitempty"\`
	Allocation *Allocation \`json:"allocation,omitempty"\`
}

type Action struct {
	Cache    *CacheAction    \`json:"cache,omitempty"\`
	Redirect *RedirectAction \`json:"redirect,omitempty"\`
}

// The operator tries the options in this order, which is not the order of the fields.
func (action Action) MarshalJSON() ([]byte, error) {
	if action.Redirect != nil {
		return json.Marshal(action.Redirect)
	}

	if action.Cache != nil {
		return json.Marshal(action.Cache)
	}

	return nil, nil
}

type RedirectAction struct {
	Name string \`json:"name,omitempty"\`
}

type CacheAction struct {
	Name string \`json:"name,omitempty"\`
}

type Allocation struct {
	Count *string          \`json:"count,omitempty"\`
	Pool  *Allocation_Pool \`json:"pool,omitempty"\`
}

type Allocation_Pool struct {
	Id *string \`json:"id,omitempty"\`
}
`;

/** The schema of that rule as the import writes it: `properties` flattened, names as the CRD has them. */
function ruleSchema() {
  return {
    resourceDefinitions: {
      rules: {
        properties: {
          name: { type: 'string' },
          properties: { $ref: '#/definitions/RuleProperties' },
        },
      },
    },
    definitions: {
      RuleProperties: {
        properties: {
          actions: { items: { $ref: '#/definitions/RuleAction' }, type: 'array' },
          ruleconditions: { items: { type: 'string' }, type: 'array' },
          properties_tags: { items: { type: 'string' }, type: 'array' },
          allocation: { $ref: '#/definitions/Allocation' },
        },
      },
      // Named otherwise than its Go struct (Action): found by walking from the spec.
      RuleAction: {
        properties: {
          cache: { $ref: '#/definitions/CacheAction' },
          redirect: { $ref: '#/definitions/RedirectAction' },
        },
      },
      CacheAction: { properties: { name: { type: 'string' } } },
      RedirectAction: { properties: { name: { type: 'string' } } },
      Allocation: { properties: { count: { type: 'string' }, id: { type: 'string' } } },
    },
  };
}

describe('ARM paths and unions read from the operator’s ARM Go types', () => {
  const dir = join(scratch, 'arm');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'rule_spec_types_gen.go'), goTypes);

  it('reads a union’s options in the order its MarshalJSON tries them, by JSON name', () => {
    const pkg = readArmGoPackage(dir);
    expect(pkg?.oneOfs.get('Action')).toEqual(['redirect', 'cache']);
    expect(pkg?.oneOfs.has('RuleProperties')).toBe(false);
    expect(pkg?.specOf.get('microsoft.example/rules')).toBe('Rule_Spec');
  });

  it('annotates the union, the renamed and the wrapped properties, matching definitions by walking from the spec', () => {
    const pkg = readArmGoPackage(dir);
    if (!pkg) throw new Error('no package');
    const document = ruleSchema();
    const written = annotateArmPaths(document, pkg, 'Microsoft.Example/rules');
    const definitions = document.definitions as Record<string, Record<string, unknown>>;
    const props = (name: string) =>
      (definitions[name] as { properties: Record<string, Record<string, unknown>> }).properties;
    expect(definitions.RuleAction?.['x-arm-one-of']).toEqual(['redirect', 'cache']);
    expect(props('RuleProperties').ruleconditions?.['x-arm-path']).toBe('properties.conditions');
    expect(props('RuleProperties').properties_tags?.['x-arm-path']).toBe('properties.tags');
    expect(props('Allocation').id?.['x-arm-path']).toBe('pool.id');
    expect(props('Allocation').count?.['x-arm-path']).toBeUndefined();
    expect(written).toBe(4);
    // Running again replaces what the last run wrote instead of adding to it.
    expect(annotateArmPaths(document, pkg, 'Microsoft.Example/rules')).toBe(4);
  });

  it('leaves a union unannotated when the schema lacks one of its options', () => {
    const pkg = readArmGoPackage(dir);
    if (!pkg) throw new Error('no package');
    const document = ruleSchema();
    delete (document.definitions.RuleAction.properties as Record<string, unknown>).cache;
    annotateArmPaths(document, pkg, 'Microsoft.Example/rules');
    expect((document.definitions.RuleAction as Record<string, unknown>)['x-arm-one-of']).toBeUndefined();
  });
});

/** An ARM Go package whose collections lack `omitempty`, and its API package's explicit collections. */
const poolArmTypes = `package arm

type Pool_Spec struct {
	Name       string            \`json:"name,omitempty"\`
	Properties *PoolProperties   \`json:"properties,omitempty"\`
	Tags       map[string]string \`json:"tags"\`
}

func (pool Pool_Spec) GetType() string {
	return "Microsoft.Example/pools"
}

type PoolProperties struct {
	Labels map[string]string \`json:"labels"\`
	Taints []string          \`json:"taints"\`
	Zones  []string          \`json:"zones,omitempty"\`
	Rules  []Rule            \`json:"rules,omitempty"\`
	Parent *PoolProperties   \`json:"parent,omitempty"\`
}

type Rule struct {
	Ports []int \`json:"ports"\`
}
`;
const poolApiTypes = `package example

func (pool *Pool_Spec) ConvertToARM(resolved genruntime.ConvertToARMResolvedDetails) (interface{}, error) {
	result := &arm.Pool_Spec{}
	if pool.Labels != nil {
		result.Properties.Labels = make(map[string]string, len(pool.Labels))
	} else {
		// Set property to empty map, as this resource is set to serialize all collections explicitly
		result.Properties.Labels = make(map[string]string)
	}
	if result.Properties.Taints == nil {
		// Set property to empty map, as this resource is set to serialize all collections explicitly
		result.Properties.Taints = []string{}
	}
	return result, nil
}
`;

describe('the empty collections the operator’s encoder writes', () => {
  const dir = join(scratch, 'pools');
  mkdirSync(join(dir, 'arm'), { recursive: true });
  writeFileSync(join(dir, 'arm', 'pool_spec_types_gen.go'), poolArmTypes);
  writeFileSync(join(dir, 'pool_types_gen.go'), poolApiTypes);

  it('finds every list and map without omitempty by its ARM path, through lists, once through a cycle', () => {
    const pkg = readArmGoPackage(join(dir, 'arm'));
    if (!pkg) throw new Error('no package');
    expect(nullWhenUnsetPathsOf(pkg, 'Pool_Spec')).toEqual(['properties.rules[].ports', 'tags']);
  });

  it('sets apart the collections its ConvertToARM sends empty when unset, with what each is', () => {
    const pkg = readArmGoPackage(join(dir, 'arm'));
    if (!pkg) throw new Error('no package');
    expect(explicitWhenUnsetPathsOf(pkg, 'Pool_Spec')).toEqual({
      'properties.labels': 'map',
      'properties.taints': 'list',
    });
    const document = { resourceDefinitions: { pools: { properties: { name: { type: 'string' } } } } };
    annotateArmPaths(document, pkg, 'Microsoft.Example/pools');
    expect(document.resourceDefinitions.pools).toMatchObject({
      'x-arm-null-when-unset': ['properties.rules[].ports', 'tags'],
      'x-arm-empty-when-unset': { 'properties.labels': 'map', 'properties.taints': 'list' },
    });
  });
});

const goModule = operatorGoModule('test/codegen/import/arm-paths.test.ts (the operator’s ARM Go types)');

describe.runIf(goModule.present)('unions of the operator’s own ARM Go types (v2.20.0)', () => {
  it('finds a CDN rule’s actions and conditions and a metric alert’s criteria, in the operator’s order', () => {
    const cdn = armGoPackageOf(goModule.path, 'cdn', '2023-05-01', 'Microsoft.Cdn/profiles/ruleSets/rules');
    expect(cdn?.oneOfs.get('DeliveryRuleAction')?.slice(0, 3)).toEqual([
      'cacheExpiration',
      'cacheKeyQueryString',
      'modifyRequestHeader',
    ]);
    expect(cdn?.oneOfs.get('DeliveryRuleCondition')).toHaveLength(19);
    const insights = armGoPackageOf(
      goModule.path,
      'insights',
      '2018-03-01',
      'Microsoft.Insights/metricAlerts',
    );
    expect(insights?.oneOfs.get('MetricAlertCriteria')).toEqual([
      'microsoftAzureMonitorMultipleResourceMultipleMetricCriteria',
      'microsoftAzureMonitorSingleResourceMultipleMetricCriteria',
      'microsoftAzureMonitorWebtestLocationAvailabilityCriteria',
    ]);
  });
});

describe.runIf(goModule.present)('empty collections of the operator’s own ARM Go types (v2.20.0)', () => {
  it('finds a storage account’s network rule lists and AKS’s explicit node labels and taints', () => {
    const storage = armGoPackageOf(
      goModule.path,
      'storage',
      '2023-01-01',
      'Microsoft.Storage/storageAccounts',
    );
    if (!storage) throw new Error('no storage package');
    const spec = storage.specOf.get('microsoft.storage/storageaccounts') ?? '';
    expect(nullWhenUnsetPathsOf(storage, spec)).toEqual(
      expect.arrayContaining([
        'properties.networkAcls.ipRules',
        'properties.networkAcls.virtualNetworkRules',
      ]),
    );
    const aks = armGoPackageOf(
      goModule.path,
      'containerservice',
      '2024-09-01',
      'Microsoft.ContainerService/managedClusters',
    );
    if (!aks) throw new Error('no containerservice package');
    const cluster = aks.specOf.get('microsoft.containerservice/managedclusters') ?? '';
    expect(explicitWhenUnsetPathsOf(aks, cluster)).toMatchObject({
      'properties.agentPoolProfiles[].nodeLabels': 'map',
      'properties.agentPoolProfiles[].nodeTaints': 'list',
      tags: 'map',
    });
  });
});
