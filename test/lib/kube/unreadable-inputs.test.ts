import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KubeClient } from '../../../src/lib/kube/client.ts';
import { KubeconfigFileUnreadable, UnexpectedResponse } from '../../../src/lib/kube/errors.ts';
import { resolveKubeconfig } from '../../../src/lib/kube/kubeconfig.ts';
import { watchObjects } from '../../../src/lib/kube/watch.ts';
import { runCli } from '../../fixtures/cli.ts';

/** A kubeconfig whose context `ctx` has the given cluster and user entries (as YAML flow maps). */
function kubeconfig(cluster: string, user: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'kubeconfig-files-')), 'config');
  writeFileSync(
    file,
    `apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "https://127.0.0.1:1", ${cluster}}}]\nusers: [{name: u, user: {${user}}}]\ncontexts: [{name: ctx, context: {cluster: c, user: u}}]\ncurrent-context: ctx\n`,
  );
  return file;
}

describe('a kubeconfig naming a file that cannot be read', () => {
  const missing = '/nonexistent/kubectl-aso-test/file.pem';
  const cases: Array<[key: string, cluster: string, user: string]> = [
    ['certificate-authority', `certificate-authority: ${missing}`, 'token: t'],
    [
      'client-certificate',
      'insecure-skip-tls-verify: true',
      `client-certificate: ${missing}, client-key-data: a2V5`,
    ],
    [
      'client-key',
      'insecure-skip-tls-verify: true',
      `client-certificate-data: Y2VydA==, client-key: ${missing}`,
    ],
    ['tokenFile', 'insecure-skip-tls-verify: true', `tokenFile: ${missing}`],
  ];
  for (const [key, cluster, user] of cases) {
    it(`is a kubeconfig error naming the file, the context and ${key}`, async () => {
      const error = await resolveKubeconfig({ kubeconfig: kubeconfig(cluster, user) }).catch(
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(KubeconfigFileUnreadable);
      const message = (error as Error).message;
      expect(message).toContain(missing);
      expect(message).toContain('context "ctx"');
      expect(message).toContain(key);
      expect(message).toContain('ENOENT');
    });
  }

  it('makes `version` exit 3 with that message, not an internal error', async () => {
    const run = await runCli(['version'], {
      KUBECONFIG: kubeconfig('insecure-skip-tls-verify: true', `tokenFile: ${missing}`),
    });
    expect(run.code).toBe(3);
    expect(run.stderr).toContain(missing);
    expect(run.stderr).toContain('tokenFile');
    expect(run.stderr).not.toContain('this is a bug');
  });
});

describe('a 2xx answer that is not Kubernetes API JSON', () => {
  let server: Server;
  let client: KubeClient;
  beforeAll(async () => {
    server = createServer((request, response) => {
      if (request.url?.includes('watch=true')) {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('{"type":"ADDED","object":{"metadata":{"name":"a"}}}\n<html>oops</html>\n');
        return;
      }
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<html>a proxy login page</html>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    client = new KubeClient({
      config: { applyToHTTPSOptions: async () => undefined },
      contextName: 'ctx',
      server: `http://127.0.0.1:${port}`,
      namespace: 'default',
      requestTimeoutMs: 5000,
    });
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('is a typed error naming the request and the content type, not the body', async () => {
    const error = await client
      .request({ path: '/version', subject: { verb: 'get', resource: '/version' } })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UnexpectedResponse);
    expect((error as Error).message).toContain('get /version');
    expect((error as Error).message).toContain('text/html');
    expect((error as Error).message).not.toContain('login page');
  });

  it('is a typed error for a watch event line too', async () => {
    const events: string[] = [];
    const controller = new AbortController();
    const error = await (async () => {
      for await (const event of watchObjects(
        client,
        { group: 'g.azure.com', version: 'v1', plural: 'things', namespace: 'default' },
        '1',
        controller.signal,
      )) {
        events.push(event.object.metadata?.name ?? '');
      }
    })().catch((caught: unknown) => caught);
    controller.abort();
    expect(events).toEqual(['a']);
    expect(error).toBeInstanceOf(UnexpectedResponse);
    expect((error as Error).message).toContain('watch things.g.azure.com');
  });
});
