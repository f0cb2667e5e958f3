import { describe, expect, it } from 'vitest';
import { catalog } from '../../../generated/catalog.ts';
import { generatedLayoutOf } from '../../../src/lib/adoption/desired-body.ts';
import type { ArmLayout } from '../../../src/lib/conversion/arm.ts';
import { armPathOf } from '../../../src/lib/conversion/arm-path.ts';

async function layoutOf(group: string, version: string, kind: string): Promise<ArmLayout> {
  const layout = await generatedLayoutOf(group, version, kind);
  if (!layout) throw new Error(`no layout for ${group}/${version} ${kind}`);
  return layout;
}

describe('armPathOf', () => {
  it('follows the layout: root or properties, references by their ARM name, flattened objects, unions', async () => {
    const server = await layoutOf('dbforpostgresql.azure.com', 'v1api20240801', 'FlexibleServer');
    expect(armPathOf('spec.location', server)).toBe('location');
    expect(armPathOf('spec.azureName', server)).toBe('name');
    expect(armPathOf('spec.version', server)).toBe('properties.version');
    expect(armPathOf('spec.network.delegatedSubnetResourceReference', server)).toBe(
      'properties.network.delegatedSubnetResourceId',
    );
    // Not sent at all: the operator's own fields, and what the version does not have.
    expect(armPathOf('spec.owner', server)).toBeUndefined();
    expect(armPathOf('spec.notAProperty', server)).toBeUndefined();
    expect(armPathOf('status.version', server)).toBeUndefined();

    const group = await layoutOf('containerinstance.azure.com', 'v1api20211001', 'ContainerGroup');
    // A container's own `properties`, which the spec flattens into the container.
    expect(armPathOf('spec.containers[*].environmentVariables[*].secureValue', group)).toBe(
      'properties.containers[*].properties.environmentVariables[*].secureValue',
    );
    const subscription = await layoutOf('eventgrid.azure.com', 'v1api20200601', 'EventSubscription');
    // The chosen option of a union stands in the union's place.
    expect(armPathOf('spec.destination.webHook.endpointUrl', subscription)).toBe(
      'properties.destination.properties.endpointUrl',
    );
    const database = await layoutOf('kusto.azure.com', 'v1api20230815', 'Database');
    // A oneOf resource: the leaf's name is no part of the body, and its location is at the root.
    expect(armPathOf('spec.readWriteDatabase.location', database)).toBe('location');
    expect(armPathOf('spec.readWriteDatabase.softDeletePeriod', database)).toBe(
      'properties.softDeletePeriod',
    );
  });

  it('places every path the catalog marks unchangeable or write-only, in every generated version', async () => {
    const missed: string[] = [];
    let placed = 0;
    for (const entry of catalog)
      for (const [version, paths] of [
        ...Object.entries(entry.immutable),
        ...Object.entries(entry.writeOnly),
      ]) {
        const layout = await layoutOf(entry.group, version, entry.kind);
        for (const path of paths) {
          // The owner decides the resource's ARM ID, not its body: no what-if change is ever at it.
          if (path === 'spec.owner') continue;
          if (armPathOf(path, layout) === undefined) missed.push(`${entry.kind} ${version} ${path}`);
          else placed++;
        }
      }
    expect(missed).toEqual([]);
    expect(placed).toBeGreaterThan(500);
  });
});
