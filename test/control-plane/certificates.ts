import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The files a control plane needs for TLS, client authentication and service accounts. */
export interface PlaneCertificates {
  caCert: string;
  caKey: string;
  servingCert: string;
  servingKey: string;
  serviceAccountKey: string;
  serviceAccountPub: string;
  /** Client certificate and key per user name. */
  users: Record<string, { cert: string; key: string }>;
}

/** A client-certificate user: CN becomes the user name, each O a group, as the API server reads them. */
export interface CertificateUser {
  name: string;
  groups: string[];
}

function openssl(args: string[], cwd: string): void {
  execFileSync('openssl', args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
}

function signed(dir: string, base: string, subject: string, extensions: string): void {
  openssl(
    [
      'req',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      `${base}.key`,
      '-out',
      `${base}.csr`,
      '-subj',
      subject,
    ],
    dir,
  );
  writeFileSync(join(dir, `${base}.ext`), extensions);
  openssl(
    [
      'x509',
      '-req',
      '-in',
      `${base}.csr`,
      '-CA',
      'ca.crt',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-out',
      `${base}.crt`,
      '-days',
      '3650',
      '-extfile',
      `${base}.ext`,
    ],
    dir,
  );
}

/**
 * Makes a CA, a serving certificate for 127.0.0.1, one client certificate per user and a service-account
 * key pair in `dir` with openssl, reusing any that already exist.
 */
export function ensureCertificates(dir: string, users: CertificateUser[]): PlaneCertificates {
  if (!existsSync(join(dir, 'ca.crt'))) {
    openssl(
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        'ca.key',
        '-out',
        'ca.crt',
        '-days',
        '3650',
        '-subj',
        '/CN=kubectl-aso-local-ca',
      ],
      dir,
    );
  }
  if (!existsSync(join(dir, 'apiserver.crt'))) {
    signed(
      dir,
      'apiserver',
      '/CN=kube-apiserver',
      'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n',
    );
  }
  if (!existsSync(join(dir, 'sa.key'))) {
    openssl(['genrsa', '-out', 'sa.key', '2048'], dir);
    openssl(['rsa', '-in', 'sa.key', '-pubout', '-out', 'sa.pub'], dir);
  }
  const userFiles: PlaneCertificates['users'] = {};
  for (const user of users) {
    if (!existsSync(join(dir, `user-${user.name}.crt`))) {
      const subject = `${user.groups.map((group) => `/O=${group}`).join('')}/CN=${user.name}`;
      signed(dir, `user-${user.name}`, subject, 'extendedKeyUsage=clientAuth\n');
    }
    userFiles[user.name] = {
      cert: join(dir, `user-${user.name}.crt`),
      key: join(dir, `user-${user.name}.key`),
    };
  }
  return {
    caCert: join(dir, 'ca.crt'),
    caKey: join(dir, 'ca.key'),
    servingCert: join(dir, 'apiserver.crt'),
    servingKey: join(dir, 'apiserver.key'),
    serviceAccountKey: join(dir, 'sa.key'),
    serviceAccountPub: join(dir, 'sa.pub'),
    users: userFiles,
  };
}
