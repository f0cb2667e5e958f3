import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { releaseCatalogOf, releaseCatalogSource } from '../emit/release-catalog-emitter.ts';
import {
  releaseCatalogFile,
  releaseOperatorsOfCatalog,
  releaseTreesOfCatalog,
} from '../import/release-catalog-file.ts';
import { stage } from '../stage.ts';
import { addFile } from '../state.ts';

/**
 * Writes `releases.ts` from the release catalog, when the schemas directory has one (the generator's own
 * test fixtures have none, and need none).
 */
export const emitReleaseCatalog = stage({
  id: 'emitReleaseCatalog',
  description: 'Emit the release catalog (kinds per release, changes per hop)',
  needs: [],
  run: (state) => {
    const path = join(state.root, state.schemasDir, releaseCatalogFile);
    if (!existsSync(path)) return;
    const text = readFileSync(path, 'utf8');
    addFile(
      state,
      'releases.ts',
      releaseCatalogSource(releaseCatalogOf(releaseTreesOfCatalog(text), releaseOperatorsOfCatalog(text))),
    );
  },
});
