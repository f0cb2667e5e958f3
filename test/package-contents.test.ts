import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = new URL('..', import.meta.url).pathname;

/**
 * What `npm publish` would ship, from npm's own file list (the build has run before the tests): the
 * runtime, and none of the generator, the test support or the tests, which users never run.
 */
describe('the published package', () => {
  it('ships the built commands and runtime but not the generator or test support', async () => {
    const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: root,
      maxBuffer: 64 * 1024 * 1024,
    });
    const [pack] = JSON.parse(stdout) as [{ files: { path: string }[] }];
    const paths = pack.files.map((f) => f.path);
    expect(paths).toContain('dist/src/commands/status.js');
    expect(paths).toContain('dist/generated/registry.js');
    expect(paths).toContain('bin/kubectl-aso');
    // adopt-check and delete-check load the Azure libraries from one bundle, not some 300 modules.
    expect(paths).toContain('dist/vendor/azure.cjs');
    // Client-side migration compares the cluster's CRDs with these at run time.
    expect(paths).toContain('generated/crds/dbforpostgresql.azure.com.yaml.br');
    expect(paths.filter((p) => p.startsWith('generated/crds/') && !p.endsWith('.yaml.br'))).toEqual([]);
    expect(paths.filter((p) => p.startsWith('dist/src/codegen/'))).toEqual([]);
    expect(paths.filter((p) => p.startsWith('dist/src/testing/'))).toEqual([]);
    expect(paths.filter((p) => /^(test|src|schemas)\//.test(p))).toEqual([]);
    expect(paths.filter((p) => /\/shapes\.js$|\.test\.js$/.test(p))).toEqual([]);
  });
});
