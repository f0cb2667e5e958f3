import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type KubernetesKindSchema,
  kubernetesKindMarker,
  kubernetesKindsDir,
} from '../model/kubernetes-kinds.ts';
import { stage } from '../stage.ts';

/**
 * Reads `<schemasDir>/kubernetes/<group>/<plural>.json`: the kinds the operator manages without ARM (database
 * users, Entra groups), whose CRDs the import wrote as they are. A schemas folder without them (the
 * generator's test fixtures) has none.
 */
export const loadKubernetesKinds = stage({
  id: 'loadKubernetesKinds',
  description: 'Load the kinds the operator manages without ARM',
  needs: [],
  run: (state) => {
    const dir = join(state.root, state.schemasDir, kubernetesKindsDir);
    const kinds: KubernetesKindSchema[] = [];
    if (existsSync(dir))
      for (const group of readdirSync(dir).sort())
        for (const file of readdirSync(join(dir, group))
          .filter((f) => f.endsWith('.json'))
          .sort()) {
          const at = join(state.schemasDir, kubernetesKindsDir, group, file);
          const schema = JSON.parse(readFileSync(join(dir, group, file), 'utf8')) as KubernetesKindSchema;
          if (schema.description !== kubernetesKindMarker || schema.group !== group)
            throw new Error(
              `${at}: not a kind the import wrote for ${group} (npm run schemas:import rewrites it)`,
            );
          if (schema.versions.filter((v) => v.storage).length !== 1)
            throw new Error(`${at}: expected exactly one storage version`);
          kinds.push(schema);
        }
    state.kubernetesKinds = kinds;
  },
});
