import type { AsoError } from '../errors.ts';
import { parseJson } from '../json/parse-json.ts';
import type { RequestSubject } from './client.ts';
import { ApiError, ClusterUnreachable, Conflict, Forbidden, NotFound, Unauthorized } from './errors.ts';

/** The parts of a Kubernetes `Status` body an error message needs. */
interface StatusBody {
  kind?: string;
  message?: string;
  reason?: string;
  metadata?: { continue?: string };
}

function statusBodyOf(text: string): StatusBody {
  try {
    const parsed: unknown = parseJson(text);
    return typeof parsed === 'object' && parsed !== null ? (parsed as StatusBody) : {};
  } catch {
    return { message: text.slice(0, 300) };
  }
}

/** Turns an error answer of the API server into the typed error for its status code. */
export function apiErrorOf(status: number, text: string, subject: RequestSubject, server: string): AsoError {
  const body = statusBodyOf(text);
  const message = body.message ?? '';
  switch (status) {
    case 401:
      return new Unauthorized(server);
    case 403:
      return new Forbidden(subject.verb, subject.resource, subject.namespace, message);
    case 404:
      return new NotFound(subject.resource, message);
    case 409:
      return new Conflict(subject.resource, message);
    default:
      return new ApiError(status, body.reason ?? 'Error', subject.resource, message, body.metadata?.continue);
  }
}

/** Turns a socket-level failure (refused, DNS, TLS, timeout) into {@link ClusterUnreachable}. */
export function transportErrorOf(error: Error & { code?: string }, server: string): AsoError {
  const code = error.code ? `${error.code}: ` : '';
  const detail = error.message.startsWith(error.code ?? '\0') ? error.message : `${code}${error.message}`;
  return new ClusterUnreachable(server, detail);
}
