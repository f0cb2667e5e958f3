import { randomFrom } from '../fixtures/seeded-random.ts';
import { type CaseContext, type Expected, type SweepCase, secretMarker } from './harness.ts';

/** An old FlexibleServer: `migrate --to v1beta` converts it, so a file that is read shows one change. */
export const server = `apiVersion: dbforpostgresql.azure.com/v1alpha1api20210601
kind: FlexibleServer
metadata:
  name: orders-db
  namespace: shop
spec:
  location: westeurope
  owner:
    name: shop-rg
`;

/** What `migrate --to v1beta` makes of a text of such servers. */
export function convertedText(text: string): string {
  return text.replaceAll('v1alpha1api20210601', 'v1beta20210601');
}

/** The same text with an inline password (a secret value where a reference belongs) in its first spec. */
function withSecret(text: string): string {
  return text.includes('\nspec:\n')
    ? text.replace('\nspec:\n', `\nspec:\n  administratorLoginPassword: "${secretMarker}"\n`)
    : `${text}---\n${server.replace('orders-db', 'second').replace('spec:\n', `spec:\n  administratorLoginPassword: "${secretMarker}"\n`)}`;
}

/** One manifest file's content and what reading it must give. */
interface Manifest {
  name: string;
  content: string | Buffer;
  /** bad: exit 9 naming the file; converts: a good input with one change; unchanged: a good input, nothing to convert. */
  verdict: 'bad' | 'converts' | 'unchanged' | 'documented';
  /** File name on disk (default `input.yaml`). */
  fileName?: string;
}

function junk(seed: number, length: number): Buffer {
  const random = randomFrom(seed);
  return Buffer.from(Array.from({ length }, () => Math.floor(random() * 256)));
}

function aliasBomb(): string {
  let bomb = 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n';
  for (const [previous, name] of ['ab', 'bc', 'cd', 'de', 'ef', 'fg', 'gh', 'hi']) {
    bomb += `${name}: &${name} [${Array(9).fill(`*${previous}`).join(',')}]\n`;
  }
  return `${server}---\n${bomb}`;
}

const replace = (from: string, to: string): string => {
  if (!server.includes(from)) throw new Error(`the base manifest has no ${from}`);
  return server.replace(from, to);
};
const spec = server.slice(server.indexOf('spec:'));

/** A value of the wrong type at every level the reader checks: spec, metadata, owner, location, tags, and the type fields. */
const wrongTypes: Array<[string, string]> = [
  ['spec is a string', server.replace(spec, 'spec: "str"\n')],
  ['spec is a list', server.replace(spec, 'spec: [a, b]\n')],
  ['spec is a number', server.replace(spec, 'spec: 42\n')],
  ['spec is true', server.replace(spec, 'spec: true\n')],
  ['metadata is a string', replace('metadata:\n  name: orders-db\n  namespace: shop\n', 'metadata: "m"\n')],
  ['metadata is a list', replace('metadata:\n  name: orders-db\n  namespace: shop\n', 'metadata: [a]\n')],
  ['metadata is a number', replace('metadata:\n  name: orders-db\n  namespace: shop\n', 'metadata: 7\n')],
  ['metadata.name is a number', replace('name: orders-db', 'name: 42')],
  ['metadata.name is an object', replace('name: orders-db', 'name: {a: b}')],
  ['metadata.name is a list', replace('name: orders-db', 'name: [x]')],
  ['metadata.namespace is a list', replace('namespace: shop', 'namespace: [x]')],
  ['metadata.namespace is a number', replace('namespace: shop', 'namespace: 5')],
  ['metadata.labels is a string', replace('namespace: shop', 'namespace: shop\n  labels: "x"')],
  ['metadata.labels is a list', replace('namespace: shop', 'namespace: shop\n  labels: [x]')],
  ['metadata.annotations is a string', replace('namespace: shop', 'namespace: shop\n  annotations: "x"')],
  ['owner is a string', replace('owner:\n    name: shop-rg', 'owner: shop-rg')],
  ['owner is a list', replace('owner:\n    name: shop-rg', 'owner: [shop-rg]')],
  ['owner is a number', replace('owner:\n    name: shop-rg', 'owner: 42')],
  ['owner.name is a number', replace('name: shop-rg', 'name: 42')],
  ['owner.name is a list', replace('name: shop-rg', 'name: [shop-rg]')],
  ['owner.name is an object', replace('name: shop-rg', 'name: {a: b}')],
  ['location is a number', replace('location: westeurope', 'location: 42')],
  ['location is an object', replace('location: westeurope', 'location: {region: westeurope}')],
  ['location is a list', replace('location: westeurope', 'location: [westeurope]')],
  ['location is true', replace('location: westeurope', 'location: true')],
  ['tags is a string', replace('location: westeurope', 'location: westeurope\n  tags: "x"')],
  ['tags is a list', replace('location: westeurope', 'location: westeurope\n  tags: [a, b]')],
  ['tags is a number', replace('location: westeurope', 'location: westeurope\n  tags: 5')],
  ['a tag value is an object', replace('location: westeurope', 'location: westeurope\n  tags: {a: {b: c}}')],
  ['a tag value is a list', replace('location: westeurope', 'location: westeurope\n  tags: {a: [b]}')],
  ['version is a list', replace('location: westeurope', 'location: westeurope\n  version: [13]')],
  [
    'apiVersion is a number',
    replace('apiVersion: dbforpostgresql.azure.com/v1alpha1api20210601', 'apiVersion: 42'),
  ],
  [
    'apiVersion is a list',
    replace('apiVersion: dbforpostgresql.azure.com/v1alpha1api20210601', 'apiVersion: [a]'),
  ],
  [
    'apiVersion is an object',
    replace('apiVersion: dbforpostgresql.azure.com/v1alpha1api20210601', 'apiVersion: {a: b}'),
  ],
  ['kind is a number', replace('kind: FlexibleServer', 'kind: 42')],
  ['kind is a list', replace('kind: FlexibleServer', 'kind: [FlexibleServer]')],
  ['kind is an object', replace('kind: FlexibleServer', 'kind: {a: b}')],
];

const deepFlow = `${server.replace('  owner:', `  deep: ${'['.repeat(5000)}${']'.repeat(5000)}\n  owner:`)}`;
const deepBlock = server.replace(
  '  owner:',
  `  deep:\n${Array.from({ length: 400 }, (_, i) => `${' '.repeat(4 + 2 * i)}k${i}:\n`).join('')}${' '.repeat(804)}leaf: 1\n  owner:`,
);

/** Every manifest file the sweep feeds to both readers. */
export const manifests: Manifest[] = [
  // YAML that does not parse, or parses into what a manifest cannot be.
  { name: 'unclosed flow list', content: 'a: [\n', verdict: 'bad' },
  { name: 'unclosed quote', content: replace('name: orders-db', 'name: "orders-db'), verdict: 'bad' },
  { name: 'tab indentation', content: replace('  location:', '\tlocation:'), verdict: 'bad' },
  { name: 'bad indentation', content: replace('    name: shop-rg', ' name: shop-rg'), verdict: 'bad' },
  { name: 'duplicate top-level key', content: `${server}kind: FlexibleServer\n`, verdict: 'bad' },
  { name: 'duplicate key in spec', content: `${server}  location: westus\n`, verdict: 'bad' },
  {
    name: 'duplicate key in metadata',
    content: replace('namespace: shop', 'namespace: shop\n  name: other'),
    verdict: 'bad',
  },
  { name: 'deep flow nesting (5000)', content: deepFlow, verdict: 'documented' },
  { name: 'deep block nesting (400)', content: deepBlock, verdict: 'documented' },
  {
    name: 'alias to an anchor in another document',
    content: `${replace('location: westeurope', 'location: &region westeurope')}---\n${server.replace('orders-db', 'b').replace('location: westeurope', 'location: *region')}`,
    verdict: 'bad',
  },
  {
    name: 'alias with no anchor',
    content: replace('location: westeurope', 'location: *nowhere'),
    verdict: 'bad',
  },
  { name: 'alias bomb', content: aliasBomb(), verdict: 'bad' },
  {
    name: 'alias within one document',
    content: replace('location: westeurope', 'location: &region westeurope\n  tags: {region: *region}'),
    verdict: 'converts',
  },
  {
    name: 'merge key',
    content: `${server.replace('  owner:', '  base: &b {x: 1}\n  more:\n    <<: *b\n  owner:')}`,
    verdict: 'documented',
  },
  {
    name: 'unknown local tag',
    content: replace('location: westeurope', 'location: !region westeurope'),
    verdict: 'documented',
  },
  {
    name: '!!binary value',
    content: replace('location: westeurope', 'location: !!binary aGVsbG8='),
    verdict: 'documented',
  },
  { name: 'complex key', content: `${server}  ? [a, b]\n  : c\n`, verdict: 'documented' },
  { name: '%YAML 1.1 directive', content: `%YAML 1.1\n---\n${server}`, verdict: 'converts' },
  { name: 'unknown directive', content: `%FOO bar\n---\n${server}`, verdict: 'documented' },
  // Encodings and bytes.
  {
    name: 'UTF-16LE with BOM',
    content: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(server, 'utf16le')]),
    verdict: 'converts',
  },
  {
    name: 'UTF-16BE with BOM',
    content: Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(server, 'utf16le').swap16()]),
    verdict: 'converts',
  },
  { name: 'UTF-16LE without BOM', content: Buffer.from(server, 'utf16le'), verdict: 'bad' },
  {
    name: 'UTF-8 with BOM',
    content: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(server)]),
    verdict: 'converts',
  },
  {
    name: 'UTF-32LE with BOM',
    content: Buffer.concat([
      Buffer.from([0xff, 0xfe, 0, 0]),
      Buffer.from(server.split('').flatMap((c) => [c.charCodeAt(0), 0, 0, 0])),
    ]),
    verdict: 'bad',
  },
  {
    name: 'invalid UTF-8 in a value',
    content: Buffer.concat([
      Buffer.from(server),
      Buffer.from('  tags: {a: "'),
      Buffer.from([0xc3, 0x28, 0xff]),
      Buffer.from('"}\n'),
    ]),
    verdict: 'bad',
  },
  {
    name: 'NUL byte in a value',
    content: replace('location: westeurope', 'location: "west\u0000europe"'),
    verdict: 'bad',
  },
  { name: 'binary junk (seed 24)', content: junk(24, 4096), verdict: 'bad' },
  { name: 'binary junk (seed 1789)', content: junk(1789, 512), verdict: 'bad' },
  {
    name: 'gzip header',
    content: Buffer.concat([Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0]), junk(7, 200)]),
    verdict: 'bad',
  },
  { name: 'CRLF line endings', content: server.replaceAll('\n', '\r\n'), verdict: 'converts' },
  { name: 'no final newline', content: server.trimEnd(), verdict: 'converts' },
  {
    name: 'JSON manifest',
    content: `${JSON.stringify({ apiVersion: 'dbforpostgresql.azure.com/v1alpha1api20210601', kind: 'FlexibleServer', metadata: { name: 'j', namespace: 'shop' }, spec: { location: 'westeurope', owner: { name: 'rg' } } })}\n`,
    verdict: 'converts',
    fileName: 'input.json',
  },
  {
    name: 'JSON with a trailing comma (valid YAML)',
    content: '{"apiVersion": "v1", "kind": "ConfigMap",}\n',
    verdict: 'unchanged',
    fileName: 'input.json',
  },
  // Empty, and documents that are not objects.
  { name: 'empty file', content: '', verdict: 'unchanged' },
  { name: 'only a comment', content: '# nothing here\n', verdict: 'unchanged' },
  { name: 'only separators', content: '---\n---\n', verdict: 'unchanged' },
  { name: 'only whitespace', content: '   \n\n  \n', verdict: 'unchanged' },
  { name: 'document is a string', content: 'hello\n', verdict: 'bad' },
  { name: 'document is a list', content: '- a\n- b\n', verdict: 'bad' },
  { name: 'document is a number', content: '42\n', verdict: 'bad' },
  { name: 'document is true', content: 'true\n', verdict: 'bad' },
  { name: 'a good document then a string', content: `${server}---\nhello\n`, verdict: 'bad' },
  {
    name: 'a bad third document',
    content: `${server}---\n${server.replace('orders-db', 'b')}---\nspec: [\n`,
    verdict: 'bad',
  },
  // Objects that are not ASO's, or not quite objects.
  {
    name: 'unknown kind in an ASO group',
    content: replace('kind: FlexibleServer', 'kind: FlexibleServerX'),
    verdict: 'documented',
  },
  {
    name: 'unknown version of an ASO kind',
    content: replace('v1alpha1api20210601', 'v1alpha9api20990101'),
    verdict: 'documented',
  },
  {
    name: 'unknown azure.com group',
    content: replace('dbforpostgresql.azure.com', 'nosuch.azure.com'),
    verdict: 'documented',
  },
  {
    name: 'only a ConfigMap',
    content: 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: plain}\ndata: {a: b}\n',
    verdict: 'unchanged',
  },
  {
    name: 'a Secret beside a server',
    content: `${server}---\napiVersion: v1\nkind: Secret\nmetadata: {name: s}\nstringData: {password: "${secretMarker}"}\n`,
    verdict: 'converts',
  },
  {
    name: 'a kubectl List of servers',
    content: `apiVersion: v1\nkind: List\nitems:\n- ${server.trimEnd().replaceAll('\n', '\n  ')}\n`,
    verdict: 'documented',
  },
  { name: 'missing apiVersion', content: server.replace(/^apiVersion: .*\n/, ''), verdict: 'bad' },
  { name: 'missing kind', content: server.replace(/^kind: .*\n/m, ''), verdict: 'bad' },
  {
    name: 'missing apiVersion and kind',
    content: server.replace(/^apiVersion: .*\nkind: .*\n/, ''),
    verdict: 'bad',
  },
  {
    name: 'apiVersion without a group',
    content: replace('dbforpostgresql.azure.com/', ''),
    verdict: 'documented',
  },
  {
    name: 'empty apiVersion',
    content: replace('apiVersion: dbforpostgresql.azure.com/v1alpha1api20210601', 'apiVersion: ""'),
    verdict: 'bad',
  },
  { name: 'empty kind', content: replace('kind: FlexibleServer', 'kind: ""'), verdict: 'bad' },
  {
    name: 'null metadata',
    content: replace('metadata:\n  name: orders-db\n  namespace: shop\n', 'metadata: ~\n'),
    verdict: 'bad',
  },
  {
    name: 'no metadata',
    content: replace('metadata:\n  name: orders-db\n  namespace: shop\n', ''),
    verdict: 'bad',
  },
  { name: 'null spec', content: server.replace(spec, 'spec: ~\n'), verdict: 'documented' },
  { name: 'empty name', content: replace('name: orders-db', 'name: ""'), verdict: 'bad' },
  // Names that are huge or carry control characters.
  {
    name: 'a 100,000-character name',
    content: replace('name: orders-db', `name: ${'n'.repeat(100_000)}`),
    verdict: 'documented',
  },
  {
    name: 'a 1 MB line in a tag',
    content: replace('location: westeurope', `location: westeurope\n  tags: {big: ${'x'.repeat(1_000_000)}}`),
    verdict: 'converts',
  },
  {
    name: 'a name with a newline',
    content: replace('name: orders-db', 'name: "orders\\ndb"'),
    verdict: 'documented',
  },
  {
    name: 'a name with ESC',
    content: replace('name: orders-db', 'name: "orders\\e[31mdb"'),
    verdict: 'documented',
  },
  {
    name: 'a name with U+202E',
    content: replace('name: orders-db', 'name: "orders\u202egnp"'),
    verdict: 'documented',
  },
  {
    name: 'a location with ESC and U+202E',
    content: replace('location: westeurope', 'location: "west\\e[2J\u202eeurope"'),
    verdict: 'documented',
  },
  {
    name: 'a name that reads as a number',
    content: replace('name: orders-db', 'name: 0x1F'),
    verdict: 'documented',
  },
  {
    name: '2,000 servers in one file',
    content: Array.from({ length: 2000 }, (_, i) => server.replace('orders-db', `db-${i}`)).join('---\n'),
    verdict: 'converts',
  },
  ...wrongTypes.map(([name, content]): Manifest => ({ name, content, verdict: 'bad' })),
  ...wrongTypes
    .filter((_, i) => i % 3 === 0)
    .map(
      ([name, content]): Manifest => ({
        name: `${name}, with an inline password`,
        content: withSecret(content),
        verdict: 'bad',
      }),
    ),
  { name: 'an inline password alone', content: withSecret(server), verdict: 'bad' },
];

/** Both readers of manifests, and the code each gives on a manifest that reads cleanly. */
const readers: Array<{
  label: string;
  args: (file: string) => string[];
  good: (verdict: 'converts' | 'unchanged') => number;
  machineStdout?: boolean;
}> = [
  {
    label: 'migrate -f --diff',
    args: (file) => ['migrate', '--to', 'v1beta', '--diff', '-f', file],
    good: (v) => (v === 'converts' ? 23 : 0),
  },
  {
    label: 'migrate -f',
    args: (file) => ['migrate', '--to', 'v1beta', '-f', file],
    good: () => 0,
    machineStdout: true,
  },
  // adopt-check reads every manifest before it looks for the (missing) kubeconfig: exit 3 means all were read.
  { label: 'adopt-check -f', args: (file) => ['adopt-check', '-f', file], good: () => 3 },
];

/** Each manifest through each reader; bad ones must be exit 9 naming the file. */
export function manifestCases(): SweepCase[] {
  const cases: SweepCase[] = [];
  for (const manifest of manifests) {
    const fileName = manifest.fileName ?? 'input.yaml';
    const pathIn = (context: CaseContext): string => `${context.dir}/${fileName}`;
    for (const reader of readers) {
      const expected: Expected =
        manifest.verdict === 'bad'
          ? 9
          : manifest.verdict === 'documented'
            ? 'documented'
            : reader.good(manifest.verdict);
      cases.push({
        name: `manifest: ${manifest.name}: ${reader.label}`,
        args: (context) => reader.args(context.file(fileName, manifest.content)),
        expected,
        machineStdout: reader.machineStdout || manifest.verdict === 'documented',
        stderrHas: manifest.verdict === 'bad' ? (context) => `error: ${pathIn(context)}` : undefined,
      });
    }
  }
  return cases;
}

/** --write over manifests: a good one is converted whole with its mode kept, a bad one left as it was. */
export function writeCases(): SweepCase[] {
  const picks = manifests.filter((manifest) =>
    [
      'UTF-8 with BOM',
      'CRLF line endings',
      'no final newline',
      'alias within one document',
      'a Secret beside a server',
      'unclosed flow list',
      'alias bomb',
      'document is a string',
      'a bad third document',
      'location is a number',
      'an inline password alone',
      'binary junk (seed 24)',
      'UTF-16LE with BOM',
    ].includes(manifest.name),
  );
  return picks.map((manifest): SweepCase => {
    const good = manifest.verdict === 'converts' && typeof manifest.content === 'string';
    return {
      name: `manifest --write: ${manifest.name}`,
      args: (context) => [
        'migrate',
        '--to',
        'v1beta',
        '--write',
        '-f',
        context.file('input.yaml', manifest.content, 0o664),
      ],
      // A UTF-16 file that would change is refused: --write would re-encode it.
      expected: good ? 0 : 9,
      writes: good
        ? (context) => [
            { path: `${context.dir}/input.yaml`, text: convertedText(manifest.content as string) },
          ]
        : undefined,
    };
  });
}
