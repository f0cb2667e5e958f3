import { checkObject, setKey } from './checks.ts';

/** A Kubernetes object as conversions see it: the envelope typed, spec and status left to the versions. */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata?: Record<string, unknown>;
  spec?: unknown;
  status?: unknown;
  [key: string]: unknown;
}

/** Converts one whole object to another version; generated once per kind, version and direction. */
export type ResourceConverter = (source: KubeObject) => KubeObject;

/**
 * The shared body of every generated resource conversion: keeps metadata and any other envelope field,
 * sets the target apiVersion, and converts spec and status with paths rooted at `spec` and `status`.
 */
export function convertResource(
  source: KubeObject,
  apiVersion: string,
  spec: (value: never, path: string) => unknown,
  status: (value: never, path: string) => unknown,
): KubeObject {
  checkObject(source, '(object)');
  const out: KubeObject = {};
  for (const key in source) {
    if (key === 'spec') out.spec = spec(source.spec as never, 'spec');
    else if (key === 'status') out.status = status(source.status as never, 'status');
    else if (key === 'apiVersion') out.apiVersion = apiVersion;
    else setKey(out, key, source[key]);
  }
  out.apiVersion = apiVersion;
  return out;
}
