import { describe, expect, it } from 'vitest';
import { decodeManifest, refuseRewriteIn } from '../../../src/lib/manifests/decode.ts';
import { ManifestError } from '../../../src/lib/manifests/errors.ts';

const text = 'kind: ResourceGroup\nmetadata:\n  name: é\n';

describe('decodeManifest', () => {
  it('decodes UTF-16LE, UTF-16BE and UTF-8 by their byte order mark, without the mark', () => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const be = Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]);
    const bom8 = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]);
    expect(decodeManifest('le.yaml', le)).toEqual({ text, encoding: 'utf16le' });
    expect(decodeManifest('be.yaml', be)).toEqual({ text, encoding: 'utf16be' });
    expect(decodeManifest('bom.yaml', bom8)).toEqual({ text, encoding: 'utf8-bom' });
    expect(decodeManifest('plain.yaml', Buffer.from(text))).toEqual({ text, encoding: 'utf8' });
  });

  it('names a file of NUL bytes without a mark, and one that is not UTF-8', () => {
    const noMark = Buffer.from(text, 'utf16le');
    expect(() => decodeManifest('x.yaml', noMark)).toThrow(ManifestError);
    expect(() => decodeManifest('x.yaml', noMark)).toThrow(/x\.yaml: holds NUL bytes/);
    expect(() => decodeManifest('l.yaml', Buffer.from(text, 'latin1'))).toThrow(
      /l\.yaml: is not valid UTF-8/,
    );
  });

  it('refuses to rewrite in place a file that is not plain UTF-8', () => {
    expect(() => refuseRewriteIn('a.yaml', 'utf8')).not.toThrow();
    expect(() => refuseRewriteIn('a.yaml', 'utf16be')).toThrow(
      /a\.yaml: --write would re-encode this UTF-16BE/,
    );
  });
});
