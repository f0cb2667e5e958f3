import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { releaseCatalog } from '../../../generated/releases.ts';
import { defaultOperatorGoDir } from '../../../src/codegen/import/operator-go.ts';
import { releaseOperatorIn } from '../../../src/codegen/import/release-operator.ts';
import { operatorGoModule } from '../../fixtures/operator-go-module.ts';

const neededBy = 'test/codegen/import/release-operator.test.ts';
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A module folder with the given setup.go and, when asked, the migration reconciler's package. */
function moduleWith(setup: string | undefined, withPackage: boolean): string {
  const dir = mkdtempSync(join(tmpdir(), 'release-operator-'));
  dirs.push(dir);
  if (setup !== undefined) {
    mkdirSync(join(dir, 'cmd', 'controller', 'app'), { recursive: true });
    writeFileSync(join(dir, 'cmd', 'controller', 'app', 'setup.go'), setup);
  }
  if (withPackage) mkdirSync(join(dir, 'internal', 'reconcilers', 'migration', 'crd'), { recursive: true });
  return dir;
}

const registering = `
	if flgs.CRDManagementMode == "auto" {
		deprecatedVersions := crdmanagement.GetAllDeprecatedStorageVersions(readyResources)
		err = crd.NewReconciler(clients.kubeClient, mgr.GetCache(), deprecatedVersions, crd.Options{}).SetupWithManager(mgr)
	}`;

describe("what a release's operator does by itself, read from its Go module", () => {
  it('cleans stored versions only when the reconciler is registered behind --crd-management auto', () => {
    expect(releaseOperatorIn(moduleWith(registering, true))).toEqual({ cleansStoredVersions: true });
    expect(releaseOperatorIn(moduleWith(registering, false))).toEqual({ cleansStoredVersions: false });
    expect(releaseOperatorIn(moduleWith(registering.replace('== "auto"', '== "none"'), true))).toEqual({
      cleansStoredVersions: false,
    });
    expect(releaseOperatorIn(moduleWith('package app\n', true))).toEqual({ cleansStoredVersions: false });
  });

  it('refuses a folder that is not an operator module instead of reading it as doing nothing', () => {
    const dir = moduleWith(undefined, true);
    expect(() => releaseOperatorIn(dir)).toThrow(`${dir}: no cmd/controller/app/setup.go`);
  });

  const v20 = operatorGoModule(neededBy);
  it.skipIf(!v20.present)(
    "ships, for each release whose module is here, what that module's code says (v2.20.0's always)",
    () => {
      const checked: string[] = [];
      for (const release of releaseCatalog.releases) {
        const dir = defaultOperatorGoDir(release);
        if (release !== 'v2.20.0' && !existsSync(dir)) {
          process.stderr.write(`skipped: ${neededBy}: no Go module of ASO ${release} at ${dir}\n`);
          continue;
        }
        expect(releaseCatalog.operators[release], release).toEqual(releaseOperatorIn(dir));
        checked.push(release);
      }
      expect(checked).toContain('v2.20.0');
      expect(releaseCatalog.operators['v2.20.0']?.cleansStoredVersions).toBe(true);
    },
  );
});
