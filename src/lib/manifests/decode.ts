import { ManifestError } from './errors.ts';

/** How a manifest file's bytes were encoded: told by its byte order mark, UTF-8 without one. */
export type ManifestEncoding = 'utf8' | 'utf8-bom' | 'utf16le' | 'utf16be';

const names: Record<ManifestEncoding, string> = {
  utf8: 'UTF-8',
  'utf8-bom': 'UTF-8 (with a byte order mark)',
  utf16le: 'UTF-16LE',
  utf16be: 'UTF-16BE',
};

/** The encoding as a person names it, for messages. */
export function encodingName(encoding: ManifestEncoding): string {
  return names[encoding];
}

/**
 * Decodes a manifest file as kubectl reads it: UTF-8, or UTF-16 (either byte order) or UTF-8 behind a
 * byte order mark, which editors on Windows write. The mark is not part of the text. Bytes that are not
 * text in any of these (a NUL without a mark, invalid UTF-8) are a {@link ManifestError}, never a text
 * of replacement characters that would parse as nothing or be written back mangled.
 */
export function decodeManifest(
  file: string,
  bytes: Uint8Array,
): { text: string; encoding: ManifestEncoding } {
  const [a, b, c] = bytes;
  if (a === 0xef && b === 0xbb && c === 0xbf)
    return { text: utf8(file, bytes.subarray(3)), encoding: 'utf8-bom' };
  if (a === 0xff && b === 0xfe)
    return { text: utf16(file, bytes.subarray(2), 'utf-16le'), encoding: 'utf16le' };
  if (a === 0xfe && b === 0xff)
    return { text: utf16(file, bytes.subarray(2), 'utf-16be'), encoding: 'utf16be' };
  if (bytes.includes(0)) {
    throw new ManifestError(file, 'holds NUL bytes: not a text file (UTF-16 needs a byte order mark)');
  }
  return { text: utf8(file, bytes), encoding: 'utf8' };
}

function utf8(file: string, bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new ManifestError(
      file,
      'is not valid UTF-8 text (save it as UTF-8, or UTF-16 with a byte order mark)',
    );
  }
}

function utf16(file: string, bytes: Uint8Array, label: 'utf-16le' | 'utf-16be'): string {
  try {
    return new TextDecoder(label, { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new ManifestError(
      file,
      `is not valid ${label.toUpperCase()} text, though it starts with its byte order mark`,
    );
  }
}

/**
 * Until the writer writes text back in the encoding it was read in, a file that is not plain UTF-8 is not
 * rewritten in place: re-encoding a user's UTF-16 file as UTF-8 (or dropping its byte order mark) would
 * change more than the conversion did, without being asked.
 */
export function refuseRewriteIn(file: string, encoding: ManifestEncoding): void {
  if (encoding === 'utf8') return;
  throw new ManifestError(
    file,
    `--write would re-encode this ${encodingName(encoding)} file as UTF-8; not written (convert the file to UTF-8 first, or use --output-dir)`,
  );
}
