import { AsoError } from '../errors.ts';

/** No kubeconfig could be read: the file named by a flag or KUBECONFIG is missing, or none exists. */
export class KubeconfigMissing extends AsoError {
  constructor(paths: string[]) {
    super(
      'kubeconfig',
      paths.length === 0
        ? 'no kubeconfig found: KUBECONFIG is not set and ~/.kube/config does not exist'
        : `kubeconfig not found: ${paths.join(', ')}`,
      'pass --kubeconfig FILE or set KUBECONFIG',
    );
  }
}

/** The kubeconfig exists but cannot be parsed or lacks what a connection needs. */
export class KubeconfigInvalid extends AsoError {
  constructor(source: string, problem: string) {
    super('kubeconfig', `kubeconfig ${source} is not usable: ${problem}`);
  }
}

/** `--context` (or current-context) names a context the kubeconfig does not have. */
export class UnknownContext extends AsoError {
  constructor(context: string, known: string[]) {
    super(
      'kubeconfig',
      `context "${context}" is not in the kubeconfig`,
      known.length > 0 ? `known contexts: ${known.join(', ')}` : 'the kubeconfig defines no contexts',
    );
  }
}

/**
 * A file the kubeconfig names (a CA, client certificate or key, a token file) cannot be read. Without this
 * the user would see a bare ENOENT; the message names the file, the context and the key that points at it.
 */
export class KubeconfigFileUnreadable extends AsoError {
  readonly file: string;
  readonly key: string;
  constructor(context: string | undefined, entry: string, key: string, file: string, cause: string) {
    super(
      'kubeconfig',
      `kubeconfig${context ? ` context "${context}"` : ''}: ${entry} ${key} names ${file}, which cannot be read (${cause})`,
      'fix the path in the kubeconfig, or pick another --context',
    );
    this.file = file;
    this.key = key;
  }
}

/**
 * The user's exec credential plugin could not be started (not on PATH, not executable). Without this the
 * user would see a bare `spawn ... ENOENT` as an internal error; it is the kubeconfig that names it.
 */
export class ExecPluginUnavailable extends AsoError {
  constructor(context: string, user: string, command: string, cause: string) {
    super(
      'kubeconfig',
      `kubeconfig context "${context}": user "${user}" runs the credential plugin "${command}", which cannot be started (${cause})`,
      `install ${command} or put it on PATH (kubectl would fail the same way), or pick another --context`,
    );
  }
}

/**
 * A 2xx answer, or a watch event, that is not the JSON the Kubernetes API sends: usually a server address
 * that points at something else (a proxy's HTML page, say). It is the address that is wrong, not the
 * plugin, so it maps to "unreachable", naming what was asked and what came back (never the body itself).
 */
export class UnexpectedResponse extends AsoError {
  constructor(server: string, what: string, detail: string) {
    // The body itself is not quoted: it might hold a secret cut in half.
    super(
      'unreachable',
      `the server at ${server} answered ${what} with something that is not Kubernetes API JSON (${detail})`,
      'check that the kubeconfig points at a Kubernetes API server',
    );
  }
}

/** The API server did not answer: refused, unresolvable, TLS failure or timeout. */
export class ClusterUnreachable extends AsoError {
  readonly server: string;
  constructor(server: string, cause: string) {
    super(
      'unreachable',
      `cannot reach the cluster at ${server}: ${cause}`,
      'check the server address, the network, or --request-timeout',
    );
    this.server = server;
  }
}

/** 401: the server did not accept the credentials. */
export class Unauthorized extends AsoError {
  constructor(server: string) {
    super(
      'unauthorized',
      `the cluster at ${server} rejected the credentials (401 Unauthorized)`,
      'refresh your credentials or pick another --context',
    );
  }
}

/** 403: RBAC forbids the verb on the resource; both are named so the user knows what to ask for. */
export class Forbidden extends AsoError {
  readonly verb: string;
  readonly resource: string;
  readonly namespace: string | undefined;
  constructor(verb: string, resource: string, namespace: string | undefined, serverMessage: string) {
    super(
      'forbidden',
      `forbidden: cannot ${verb} ${resource}${namespace ? ` in namespace ${namespace}` : ' at cluster scope'}${serverMessage ? ` (${serverMessage})` : ''}`,
    );
    this.verb = verb;
    this.resource = resource;
    this.namespace = namespace;
  }
}

/** 404 on a named object or an unserved resource type. */
export class NotFound extends AsoError {
  readonly resource: string;
  constructor(resource: string, serverMessage: string) {
    super('notFound', `not found: ${resource}${serverMessage ? ` (${serverMessage})` : ''}`);
    this.resource = resource;
  }
}

/** 409: someone else wrote the object first, or it already exists. */
export class Conflict extends AsoError {
  constructor(resource: string, serverMessage: string) {
    super('conflict', `conflict on ${resource}: ${serverMessage}`);
  }
}

/** Any other error status from the API server, kept with its code and message. */
export class ApiError extends AsoError {
  readonly status: number;
  readonly reason: string;
  /** A 410 Expired answer may carry a fresh continue token to resume an interrupted list. */
  readonly continueToken: string | undefined;
  constructor(
    status: number,
    reason: string,
    resource: string,
    serverMessage: string,
    continueToken?: string,
  ) {
    super(
      status === 422 || status === 400 ? 'invalidInput' : 'internal',
      `${resource}: the API server answered ${status} ${reason}: ${serverMessage}`,
    );
    this.status = status;
    this.reason = reason;
    this.continueToken = continueToken;
  }
}

/**
 * A request its caller cancelled (its AbortSignal fired): never a user-facing failure, since whoever
 * cancelled has already decided how the run ends, so it is not an {@link AsoError} and callers drop it.
 */
export class RequestCancelled extends Error {
  constructor(what: string) {
    super(`${what}: cancelled`);
    this.name = 'RequestCancelled';
  }
}
