import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';

/** A sample manifest of the operator's, with the file it came from for messages. */
export interface Sample {
  readonly file: string;
  readonly object: { apiVersion: string; kind: string } & Record<string, unknown>;
}

function yamlFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((entry) => {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) return yamlFiles(path);
      return /\.ya?ml$/.test(entry) ? [path] : [];
    });
}

/** Every object in the operator's sample manifests under `dir` (the shared `aso-samples/v2.20.0`). */
export function loadSamples(dir: string): Sample[] {
  return yamlFiles(dir).flatMap((file) =>
    parseAllDocuments(readFileSync(file, 'utf8'))
      .map((document) => document.toJS() as Sample['object'] | null)
      .filter((object): object is Sample['object'] => typeof object?.apiVersion === 'string')
      .map((object) => ({ file, object })),
  );
}
