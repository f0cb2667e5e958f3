import type { OperatorExports, OperatorSpecProperty } from '../model/config.ts';
import { runtimeTypeName } from '../model/shared-types.ts';
import type { ObjectDef, PackageDef, PropertyDef, TypeDef } from '../model/types.ts';
import { stage } from '../stage.ts';
import { need } from '../state.ts';

/** Annotations or labels the operator puts on the config map or secret it writes. */
function metadataOf(which: 'annotations' | 'labels'): PropertyDef {
  return {
    name: which,
    type: { kind: 'map', value: { kind: 'primitive', primitive: 'string' } },
    required: false,
    description: `${which === 'annotations' ? 'Annotations' : 'Labels'} to apply to the destination.`,
  };
}

/** Where the operator writes one exported value: a key of a config map or secret (the operator's types). */
function destination(name: string, what: string): ObjectDef {
  return {
    kind: 'object',
    runtime: true,
    name: runtimeTypeName('genruntime', name),
    description: `The ${what} (in the namespace of the resource) and key the operator writes the value to.`,
    // Go field order of genruntime's ConfigMapDestination and SecretDestination (Name, Key, Annotations,
    // Labels): the operator writes a bagged value as JSON text in that order.
    properties: [
      {
        name: 'name',
        type: { kind: 'primitive', primitive: 'string' },
        required: true,
        description: `The name of the ${what}.`,
        goValue: 'omitZero',
      },
      {
        name: 'key',
        type: { kind: 'primitive', primitive: 'string' },
        required: true,
        description: `The key in the ${what}.`,
        goValue: 'omitZero',
      },
      metadataOf('annotations'),
      metadataOf('labels'),
    ],
  };
}

const configMapDestination = destination('ConfigMapDestination', 'config map');
const secretDestination = destination('SecretDestination', 'secret');

/**
 * The operator's `DestinationExpression`: a CEL expression whose result the operator writes into a config
 * map or secret. Its fields are the operator's (`core.DestinationExpression`), so objects written for the
 * real operator keep them through kubectl-aso's conversions instead of being pruned by the API server.
 */
export const destinationExpression: ObjectDef = {
  kind: 'object',
  runtime: true,
  name: runtimeTypeName('core', 'DestinationExpression'),
  description:
    'A CEL expression and the config map or secret (in the namespace of the resource) the operator stores its result in.',
  // Go field order of the operator's core.DestinationExpression (Name, Key, Value, Annotations, Labels).
  properties: [
    {
      name: 'name',
      type: { kind: 'primitive', primitive: 'string' },
      required: true,
      description: 'The name of the config map or secret to write to.',
      goValue: 'omitZero',
    },
    {
      name: 'key',
      type: { kind: 'primitive', primitive: 'string' },
      required: false,
      description: 'The key written to; must be unset when the expression returns a map.',
      goValue: 'omitZero',
    },
    {
      name: 'value',
      type: { kind: 'primitive', primitive: 'string' },
      required: true,
      description: 'The CEL expression.',
      goValue: 'omitZero',
    },
    metadataOf('annotations'),
    metadataOf('labels'),
  ],
};

/**
 * Issue 8, item 3: every resource spec carries `operatorSpec`, as the operator's CRDs do: settings the
 * operator interprets itself and never sends to Azure (`arm: 'none'`): `configMapExpressions` and
 * `secretExpressions` on every kind, and the exports the config lists per resource type (`configMaps`,
 * `secrets`) and the operator's own settings it lists (`operatorSpecProperties`), in the Go field order of
 * the operator's `<Kind>OperatorSpec` (alphabetical). A oneOf root (seed 004) gets one too, beside its
 * options, as the operator's Kusto `Database` has it (`oneOfOptions` leaves it out of the options).
 */
export const addOperatorSpec = stage({
  id: 'addOperatorSpec',
  description: 'Add operatorSpec (config map and secret expressions) to every resource spec',
  needs: ['buildApiPackages'],
  run: (state) => {
    const config = need(state.config, 'config');
    state.packages = state.packages.map((pkg) =>
      pkg.storage ? pkg : withOperatorSpec(pkg, config.operatorExports, config.operatorSpecProperties),
    );
  },
});

/** One API package with `operatorSpec` on each resource spec (a oneOf root included). */
export function withOperatorSpec(
  pkg: PackageDef,
  exports: readonly OperatorExports[] = [],
  settings: readonly OperatorSpecProperty[] = [],
): PackageDef {
  const types = new Map<string, TypeDef>(pkg.types);
  for (const resource of pkg.resources) {
    const spec = types.get(resource.specType);
    if (spec?.kind !== 'object' || spec.properties.some((p) => p.name === 'operatorSpec')) continue;
    const operatorSpecType = `${resource.kind}OperatorSpec`;
    if (types.has(operatorSpecType)) {
      throw new Error(
        `${pkg.group}/${pkg.version}: type ${operatorSpecType} already exists; operatorSpec would clash`,
      );
    }
    types.set(destinationExpression.name, destinationExpression);
    const expressions = (name: string, what: string): PropertyDef => ({
      name,
      type: { kind: 'array', element: { kind: 'object', name: destinationExpression.name } },
      required: false,
      description: `Where to place ${what} the operator writes from CEL expressions.`,
    });
    const applies = (e: { armType: string; apiVersions: readonly string[] }) =>
      e.armType.toLowerCase() === resource.armType.toLowerCase() &&
      (e.apiVersions.length === 0 || e.apiVersions.includes(pkg.armApiVersion));
    const exported = exports.find(applies);
    const own = settings.filter(applies).map((setting): PropertyDef => {
      if (setting.enum.length === 0) {
        return {
          name: setting.name,
          type: { kind: 'primitive', primitive: 'string' },
          required: false,
          description: setting.description,
        };
      }
      const enumName = `${operatorSpecType}${setting.name[0]?.toUpperCase()}${setting.name.slice(1)}`;
      if (types.has(enumName)) {
        throw new Error(
          `${pkg.group}/${pkg.version}: type ${enumName} already exists; operatorSpec would clash`,
        );
      }
      types.set(enumName, { kind: 'enum', name: enumName, base: 'string', values: [...setting.enum] });
      return {
        name: setting.name,
        type: { kind: 'enum', name: enumName },
        required: false,
        description: setting.description,
      };
    });
    const exportsOf = (names: readonly string[], suffix: string, target: ObjectDef): PropertyDef[] => {
      if (names.length === 0) return [];
      const typeName = `${resource.kind}Operator${suffix}`;
      types.set(target.name, target);
      types.set(typeName, {
        kind: 'object',
        name: typeName,
        properties: [...names].sort().map((name) => ({
          name,
          type: { kind: 'object', name: target.name },
          required: false,
          description: `Where the operator writes ${name}.`,
        })),
      });
      return [
        {
          name: suffix === 'ConfigMaps' ? 'configMaps' : 'secrets',
          type: { kind: 'object', name: typeName },
          required: false,
          description: `The ${suffix === 'ConfigMaps' ? 'config maps' : 'secrets'} the operator writes values of the resource to.`,
        },
      ];
    };
    types.set(operatorSpecType, {
      kind: 'object',
      name: operatorSpecType,
      description: 'Settings interpreted by the operator itself and never sent to Azure.',
      properties: [
        expressions('configMapExpressions', 'config maps'),
        ...exportsOf(exported?.configMaps ?? [], 'ConfigMaps', configMapDestination),
        expressions('secretExpressions', 'secrets'),
        ...exportsOf(exported?.secrets ?? [], 'Secrets', secretDestination),
        ...own,
      ].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    });
    const operatorSpec: PropertyDef = {
      name: 'operatorSpec',
      type: { kind: 'object', name: operatorSpecType },
      required: false,
      arm: 'none',
      description: 'Settings interpreted by the operator itself and never sent to Azure.',
    };
    types.set(spec.name, { ...spec, properties: [...spec.properties, operatorSpec] });
  }
  return { ...pkg, types };
}
