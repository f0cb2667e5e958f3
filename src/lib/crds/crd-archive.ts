import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';

/**
 * The generated CRDs are stored one file per API group, `<group>.yaml.br`: the group's CRDs as one
 * multi-document YAML (sorted by `<group>_<plural>.yaml`, the operator's file name), brotli-compressed.
 * Every ASO kind as plain YAML is 45 MB; this layout is 0.7 MB, inside the repository's size budget and
 * small enough to ship in the single executable.
 */
export const crdArchiveSuffix = '.yaml.br';

/** The archive file (and single-executable asset) name of a group: `sql.azure.com.yaml.br`. */
export function crdArchiveName(group: string): string {
  return `${group}${crdArchiveSuffix}`;
}

/**
 * Fixed parameters, so that `npm run generate` writes the same bytes each time (CI regenerates and diffs
 * generated/). Quality 9 measured on ASO v2.20.0's CRDs: 64x in 0.8 s; quality 11 is 71x but takes 14 s.
 */
const brotliParams = {
  [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
  [constants.BROTLI_PARAM_QUALITY]: 9,
  [constants.BROTLI_PARAM_LGWIN]: 22,
};

/** A group's multi-document YAML as archive bytes. */
export function compressCrdYaml(yaml: string): Buffer {
  return brotliCompressSync(Buffer.from(yaml, 'utf8'), { params: brotliParams });
}

/** An archive's YAML. */
export function decompressCrdYaml(bytes: Uint8Array): string {
  return brotliDecompressSync(bytes).toString('utf8');
}
