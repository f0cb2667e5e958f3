import { AsoError } from '../errors.ts';

/** `KIND/NAME` names a type the cluster serves, but not one of ASO's: the graph is of ASO objects only. */
export class NotAnAsoKind extends AsoError {
  constructor(kind: string, served: string) {
    super(
      'invalidInput',
      `${kind} names ${served}, which is not an ASO resource type (ASO's types are served under *.azure.com)`,
      'name an ASO kind, e.g. ResourceGroup/my-rg or flexibleservers.dbforpostgresql.azure.com/my-server',
    );
  }
}

/** `KIND/NAME` names no object of that type in the namespace(s) looked at. */
export class ObjectNotFound extends AsoError {
  constructor(kind: string, name: string, where: string) {
    super('notFound', `${kind}/${name} not found in ${where}`, 'check the name and -n/--namespace');
  }
}

/** `KIND/NAME` where the kind is served by several ASO groups and objects of that name exist in more than one. */
export class AmbiguousKind extends AsoError {
  constructor(kind: string, name: string, choices: string[]) {
    super('usage', `${kind}/${name} matches ${choices.join(' and ')}`, `name the group, e.g. ${choices[0]}`);
  }
}

/**
 * An owner chain longer than the operator follows: it resolves an object's owners one by one up to the
 * resource group, and a chain longer than any ARM ID nests is a mistake (or a cycle not yet closed).
 */
export class OwnerChainTooDeep extends AsoError {
  constructor(object: string, chain: string[], limit: number) {
    super(
      'invalidInput',
      `${object}: the owner chain is ${chain.length} objects deep, deeper than the ${limit} the operator resolves (${chain.slice(0, 4).join(' -> ')} -> ...)`,
      'check spec.owner of the objects in the chain',
    );
  }
}

/** `KIND/NAME` that is not of that form. */
export class BadObjectName extends AsoError {
  constructor(given: string) {
    super(
      'usage',
      `"${given}" is not KIND/NAME`,
      'e.g. ResourceGroup/my-rg, flexibleserver/pg, rg.resources.azure.com/my-rg',
    );
  }
}
