import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { operatorTypeRenames } from '../../../src/codegen/import/next-version-names.ts';
import { operatorGoModule } from '../../fixtures/operator-go-module.ts';

const goModule = operatorGoModule('test/codegen/import/next-version-names.test.ts');

describe("the operator's type renames between versions ($nameInNextVersion)", () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  function moduleWith(files: Record<string, string>): string {
    const dir = mkdtempSync(join(tmpdir(), 'next-names-'));
    dirs.push(dir);
    mkdirSync(join(dir, 'azure-arm'));
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, 'azure-arm', name), text);
    return dir;
  }

  it('places each rename at the first imported API version after the one that names it', () => {
    const dir = moduleWith({
      'things.yaml': [
        'groupModelConfiguration:',
        '  2021-01-01:',
        '    Widget:',
        '      $exportAs: Widget',
        '    WidgetSettings:',
        '      $nameInNextVersion: WidgetConfiguration',
        '    WidgetSettings_STATUS:',
        '      $nameInNextVersion: WidgetConfiguration_STATUS',
        '  2024-01-01:',
        '    Last:',
        '      $nameInNextVersion: NeverSeen',
      ].join('\n'),
    });
    const renames = operatorTypeRenames(
      dir,
      new Map([
        ['things', ['2024-01-01', '2022-06-01-preview', '2021-01-01', '2023-01-01']],
        ['absent', ['2020-01-01']],
      ]),
    );
    expect(renames).toEqual([
      {
        group: 'things',
        apiVersion: '2022-06-01-preview',
        from: 'WidgetSettings',
        to: 'WidgetConfiguration',
      },
      {
        group: 'things',
        apiVersion: '2022-06-01-preview',
        from: 'WidgetSettings_STATUS',
        to: 'WidgetConfiguration_STATUS',
      },
    ]);
  });

  it.runIf(goModule.present)(
    "reads the operator's own: Redis's configuration type renamed at 2024-11-01",
    () => {
      const renames = operatorTypeRenames(
        goModule.path,
        new Map([['cache', ['2020-12-01', '2023-04-01', '2023-08-01', '2024-11-01']]]),
      );
      expect(renames).toContainEqual({
        group: 'cache',
        apiVersion: '2024-11-01',
        from: 'RedisCreateProperties_RedisConfiguration',
        to: 'RedisCommonPropertiesRedisConfiguration',
      });
      expect(renames.every((r) => r.group === 'cache')).toBe(true);
    },
  );
});
