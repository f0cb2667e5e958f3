import { Flags } from '@oclif/core';

/**
 * How the commands that read Azure (`adopt-check`, `delete-check`) pick their credential: the operator's own
 * (its credential secret, found through aso-controller-settings) or the user's login. One definition, so
 * that both commands take the same flags with the same defaults and help.
 */
export const azureCredentialFlags = {
  credential: Flags.option({
    options: ['operator', 'local'] as const,
    default: 'operator' as const,
    description: "operator: the operator's credential secret; local: your own login (DefaultAzureCredential)",
  })(),
  'operator-namespace': Flags.string({
    default: 'azureserviceoperator-system',
    description: 'namespace of aso-controller-settings',
  }),
};
