import type { MySQLServerIdentity_STATUS_ConversionHooks } from '../../../../generated/dbformysql/v20231230storage/hooks.ts';
import type { UserAssignedIdentity_STATUS } from '../../../../generated/dbformysql/v20241230storage/types.ts';
import { WrongType } from '../errors.ts';

/** Where the values this hook reads live in a FlexibleServer: its errors name the entry. */
const identitiesPath = 'status.identity.userAssignedIdentities';

/**
 * The operator's own step for MySQL flexible servers' status identity between the 2023-12-30 and
 * 2024-12-30 storage versions (`augmentConversionForMySQLServerIdentity_STATUS`, hand-written in its
 * dbformysql v20231230 storage package). 2023-12-30 holds each user-assigned identity as any JSON,
 * 2024-12-30 as a typed `UserAssignedIdentity_STATUS`; the generated code carries neither across.
 * - up, each value is read as Go's `json.Unmarshal` reads it into the typed struct: keys matched to
 *   `clientId`, `principalId` and `$propertyBag` regardless of case (the last match wins), other keys
 *   dropped, `null` read as an empty identity, and a value of another JSON type refused, as the operator's
 *   conversion fails on it;
 * - down, each typed value is written back with only those three fields, as `json.Marshal` writes it.
 * A missing map stays missing; an empty one stays empty, where Go writes none (as everywhere in kubectl-aso,
 * which keeps `{}` and `[]`; the operator reads both the same).
 */
export const serverIdentityStatusHooks: MySQLServerIdentity_STATUS_ConversionHooks = {
  assignTo(source, destination) {
    const identities = source.userAssignedIdentities;
    if (identities === undefined) {
      delete destination.userAssignedIdentities;
      return;
    }
    destination.userAssignedIdentities = Object.fromEntries(
      Object.entries(identities).map(([key, value]) => [
        key,
        identityFromJson(value, `${identitiesPath}.${key}`),
      ]),
    );
  },

  assignFrom(source, destination) {
    const identities = source.userAssignedIdentities;
    if (identities === undefined) {
      delete destination.userAssignedIdentities;
      return;
    }
    destination.userAssignedIdentities = Object.fromEntries(
      Object.entries(identities).map(([key, value]) => [key, identityAsJson(value)]),
    );
  },
};

const fields = ['clientId', 'principalId', '$propertyBag'] as const;
type Field = (typeof fields)[number];

/** The field a JSON key fills, as Go's decoder finds it: the exact name, else one equal but for case. */
function fieldOf(key: string): Field | undefined {
  return fields.find((f) => f === key) ?? fields.find((f) => f.toLowerCase() === key.toLowerCase());
}

function identityFromJson(value: unknown, path: string): UserAssignedIdentity_STATUS {
  if (value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value))
    throw new WrongType(path, 'an object (a user-assigned identity)', value);
  const out: UserAssignedIdentity_STATUS = {};
  for (const [key, raw] of Object.entries(value)) {
    const field = fieldOf(key);
    if (field === undefined) continue;
    if (field === '$propertyBag') {
      if (raw === null) {
        delete out.$propertyBag;
        continue;
      }
      if (typeof raw !== 'object' || Array.isArray(raw))
        throw new WrongType(`${path}.${key}`, 'an object of strings', raw);
      // Go decodes into the map it already has: a second bag key adds to the first. Entries, not
      // assignments, so that a key such as `__proto__` stays a key.
      const entries = Object.entries(out.$propertyBag ?? {});
      for (const [name, text] of Object.entries(raw)) {
        if (typeof text !== 'string') throw new WrongType(`${path}.${key}.${name}`, 'a string', text);
        entries.push([name, text]);
      }
      out.$propertyBag = Object.fromEntries(entries);
    } else if (raw === null) delete out[field];
    else if (typeof raw === 'string') out[field] = raw;
    else throw new WrongType(`${path}.${key}`, 'a string', raw);
  }
  return out;
}

function identityAsJson(value: UserAssignedIdentity_STATUS): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (value.clientId !== undefined) out.clientId = value.clientId;
  if (value.principalId !== undefined) out.principalId = value.principalId;
  if (value.$propertyBag !== undefined && Object.keys(value.$propertyBag).length > 0)
    out.$propertyBag = Object.fromEntries(Object.entries(value.$propertyBag));
  return out;
}
