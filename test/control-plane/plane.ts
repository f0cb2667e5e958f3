import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { KubeClient } from '../../src/lib/kube/client.ts';
import { resolveKubeconfig } from '../../src/lib/kube/kubeconfig.ts';
import { applyObject } from './apply.ts';
import { ensureBinaries } from './binaries.ts';
import { ensureCertificates } from './certificates.ts';
import { applyGeneratedCrds } from './generated-crds.ts';
import { writeKubeconfig } from './kubeconfig-file.ts';
import { freePort, isAlive, probe, spawnDetached, stopProcess, waitUntil } from './processes.ts';

/** A running local control plane, as recorded in `plane.json` in its state directory. */
export interface Plane {
  stateDir: string;
  server: string;
  kubeconfig: string;
  auditLog: string;
  /** etcd's client URL, for tests that compact history to expire continue tokens. */
  etcdUrl: string;
  etcdPid: number;
  apiserverPid: number;
  /** Processes other parts of the fixture started beside the plane (e.g. a conversion webhook). */
  extraPids: number[];
  /** The users whose client certificates the kubeconfig carries, by context name. */
  contexts: { admin: string; readonly: string };
  /** A bearer token of a user in the read-only group, for tests of token and exec-plugin credentials. */
  readonlyToken: string;
  caCert: string;
}

/** How a plane differs from the default one, for tests that need the API server configured otherwise. */
export interface PlaneOptions {
  /** Extra kube-apiserver flags (e.g. `--watch-cache=false`, so that lists are served by etcd). */
  apiserverArgs?: string[];
  /** Apply the CRDs under `generated/` and start their conversion webhook (default true). */
  withGenerated?: boolean;
}

/** The context names of the generated kubeconfig. */
export const contexts = { admin: 'admin', readonly: 'readonly' } as const;

/** The group the `readonly` user belongs to; RBAC grants it get/list/watch on everything and nothing else. */
export const readonlyGroup = 'kubectl-aso:readonly';

/** Where `npm run cluster:up` keeps its plane: `.local/cluster` in the repository. */
export const defaultStateDir = resolve(new URL('../..', import.meta.url).pathname, '.local/cluster');

const auditPolicy = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: ["RequestReceived"]
rules:
  - level: Metadata
    verbs: ["create", "update", "patch", "delete", "deletecollection"]
  - level: None
`;

function recordOf(stateDir: string): Plane | undefined {
  const file = join(stateDir, 'plane.json');
  if (!existsSync(file)) return undefined;
  return JSON.parse(readFileSync(file, 'utf8')) as Plane;
}

/** The running plane in `stateDir`, if its processes are alive and it answers /readyz. */
export async function runningPlane(stateDir: string): Promise<Plane | undefined> {
  const plane = recordOf(stateDir);
  if (!plane || !isAlive(plane.etcdPid, stateDir) || !isAlive(plane.apiserverPid, stateDir)) return undefined;
  const certs = join(stateDir, 'pki');
  const tls = {
    ca: readFileSync(join(certs, 'ca.crt')),
    cert: readFileSync(join(certs, 'user-admin.crt')),
    key: readFileSync(join(certs, 'user-admin.key')),
  };
  return (await probe(`${plane.server}/readyz`, tls)) === 200 ? plane : undefined;
}

/** A client for the plane as the given context. */
export async function clientFor(plane: Plane, context: string = contexts.admin): Promise<KubeClient> {
  return new KubeClient(await resolveKubeconfig({ kubeconfig: plane.kubeconfig, context }));
}

/**
 * Starts etcd and kube-apiserver on free loopback ports with certificates, RBAC, an audit log of every
 * write, and the CRDs under `generated/`; or returns the plane already running in `stateDir`.
 */
export async function startPlane(
  stateDir: string = defaultStateDir,
  options: PlaneOptions = {},
): Promise<Plane> {
  const running = await runningPlane(stateDir);
  if (running) return running;
  await stopPlane(stateDir);
  const binaries = ensureBinaries();
  const pki = join(stateDir, 'pki');
  mkdirSync(pki, { recursive: true });
  const certs = ensureCertificates(pki, [
    { name: 'admin', groups: ['system:masters'] },
    { name: 'readonly', groups: [readonlyGroup] },
  ]);
  const [etcdPort, peerPort, apiPort] = [await freePort(), await freePort(), await freePort()];
  const etcdUrl = `http://127.0.0.1:${etcdPort}`;
  const etcdPid = spawnDetached(
    binaries.etcd,
    [
      `--data-dir=${join(stateDir, 'etcd')}`,
      `--listen-client-urls=${etcdUrl}`,
      `--advertise-client-urls=${etcdUrl}`,
      `--listen-peer-urls=http://127.0.0.1:${peerPort}`,
      `--initial-advertise-peer-urls=http://127.0.0.1:${peerPort}`,
      `--initial-cluster=default=http://127.0.0.1:${peerPort}`,
      '--unsafe-no-fsync=true',
      '--log-level=warn',
    ],
    join(stateDir, 'etcd.log'),
  );
  await waitUntil(
    'etcd',
    async () =>
      (await fetch(`${etcdUrl}/health`)
        .then((r) => r.status)
        .catch(() => 0)) === 200,
    30_000,
    () => isAlive(etcdPid),
  );
  const auditLog = join(stateDir, 'audit.log');
  const readonlyToken = randomBytes(16).toString('hex');
  writeFileSync(join(pki, 'tokens.csv'), `${readonlyToken},token-reader,token-reader,"${readonlyGroup}"\n`, {
    mode: 0o600,
  });
  writeFileSync(join(stateDir, 'audit-policy.yaml'), auditPolicy);
  const server = `https://127.0.0.1:${apiPort}`;
  const apiserverPid = spawnDetached(
    binaries.kubeApiserver,
    [
      `--etcd-servers=${etcdUrl}`,
      '--bind-address=127.0.0.1',
      '--advertise-address=127.0.0.1',
      `--secure-port=${apiPort}`,
      `--cert-dir=${pki}`,
      `--tls-cert-file=${certs.servingCert}`,
      `--tls-private-key-file=${certs.servingKey}`,
      `--client-ca-file=${certs.caCert}`,
      `--token-auth-file=${join(pki, 'tokens.csv')}`,
      '--authorization-mode=RBAC',
      `--service-account-issuer=${server}/`,
      `--service-account-key-file=${certs.serviceAccountPub}`,
      `--service-account-signing-key-file=${certs.serviceAccountKey}`,
      '--service-cluster-ip-range=10.0.0.0/24',
      '--disable-admission-plugins=ServiceAccount',
      `--audit-policy-file=${join(stateDir, 'audit-policy.yaml')}`,
      `--audit-log-path=${auditLog}`,
      '--audit-log-mode=blocking',
      '--v=0',
      ...(options.apiserverArgs ?? []),
    ],
    join(stateDir, 'kube-apiserver.log'),
  );
  const tls = {
    ca: readFileSync(certs.caCert),
    cert: readFileSync(certs.users.admin!.cert),
    key: readFileSync(certs.users.admin!.key),
  };
  await waitUntil(
    'kube-apiserver',
    async () => (await probe(`${server}/readyz`, tls)) === 200,
    120_000,
    () => isAlive(apiserverPid),
  );
  const kubeconfig = join(stateDir, 'kubeconfig');
  writeKubeconfig(kubeconfig, server, certs.caCert, [
    { context: contexts.admin, ...certs.users.admin! },
    { context: contexts.readonly, ...certs.users.readonly! },
  ]);
  const plane: Plane = {
    stateDir,
    server,
    kubeconfig,
    auditLog,
    etcdUrl,
    etcdPid,
    apiserverPid,
    extraPids: [],
    contexts,
    readonlyToken,
    caCert: certs.caCert,
  };
  writeFileSync(join(stateDir, 'plane.json'), `${JSON.stringify(plane, null, 2)}\n`);
  const admin = await clientFor(plane);
  await grantReadOnly(admin);
  if (options.withGenerated !== false) plane.extraPids.push(...(await applyGeneratedCrds(admin, plane)));
  writeFileSync(join(stateDir, 'plane.json'), `${JSON.stringify(plane, null, 2)}\n`);
  return plane;
}

async function grantReadOnly(admin: KubeClient): Promise<void> {
  await applyObject(admin, {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name: readonlyGroup },
    rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['get', 'list', 'watch'] }],
  });
  await applyObject(admin, {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name: readonlyGroup },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: readonlyGroup },
    subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: readonlyGroup }],
  });
}

/** Stops the plane in `stateDir` (and whatever it started beside it) and removes its data. */
export async function stopPlane(stateDir: string = defaultStateDir): Promise<void> {
  const plane = recordOf(stateDir);
  if (plane) {
    // Every process of a plane names its state folder on its command line (data, cert or webhook dir).
    for (const pid of plane.extraPids ?? []) await stopProcess(pid, 5000, stateDir);
    await stopProcess(plane.apiserverPid, 5000, stateDir);
    await stopProcess(plane.etcdPid, 5000, stateDir);
  }
  rmSync(stateDir, { recursive: true, force: true });
}
