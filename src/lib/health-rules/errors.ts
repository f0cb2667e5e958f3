import { AsoError } from '../errors.ts';

/**
 * Health rules were asked for where no ASO kind is: a cluster without a CRD under `*.azure.com`, or a
 * `--crds` folder without one. An empty rule set would install nothing and look like success.
 */
export class NoAsoKinds extends AsoError {
  constructor(where: string) {
    super(
      'notFound',
      `no ASO resource types found in ${where} (no CustomResourceDefinition under an API group *.azure.com)`,
      'install Azure Service Operator first, check --context, or give the release CRDs with --all --crds DIR',
    );
  }
}

/** A `--kind` that names no ASO kind of the source (the cluster, or the CRD files). */
export class UnknownRuleKind extends AsoError {
  constructor(names: string[], where: string, known: number) {
    super(
      'notFound',
      `no ASO resource type matches --kind ${names.join(', ')} in ${where} (${known} ASO types there)`,
      'name a kind, plural, short name or kind.group, e.g. ResourceGroup, resourcegroups, resourcegroup.resources.azure.com',
    );
  }
}
