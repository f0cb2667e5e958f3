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
