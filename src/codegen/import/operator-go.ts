import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { armNameInProperties } from '../../lib/conversion/arm.ts';

/**
 * Raised when the import needs the operator's Go source and it is not there: the status enum values of a
 * schema imported for the first time come from it alone (a CRD's status carries no enum lists). Names the
 * folder it looked in.
 */
export class OperatorGoSourceMissing extends Error {
  readonly path: string;

  constructor(path: string, needed: string) {
    super(
      `the operator's Go source is not at ${path} (needed for ${needed}); fetch it with \`go mod download github.com/Azure/azure-service-operator/v2@v2.20.0\` or pass its folder as the second argument`,
    );
    this.name = 'OperatorGoSourceMissing';
    this.path = path;
  }
}

/** The folder the Go module cache keeps ASO's module in, as `go mod download` leaves it. */
export function defaultOperatorGoDir(asoVersion: string, env: NodeJS.ProcessEnv = process.env): string {
  const modCache = env.GOMODCACHE || join(env.GOPATH || join(homedir(), 'go'), 'pkg', 'mod');
  // The module cache escapes capitals as `!` + lower case: Azure -> !azure.
  return join(modCache, 'github.com', '!azure', 'azure-service-operator', `v2@${asoVersion}`);
}

interface GoField {
  readonly json: string;
  readonly type: string;
}

/**
 * The operator's generated Go API types (ASO's module, `api/<group>/<version>/*_types_gen.go`), read for what
 * its CRDs do not say: which status properties are enums, and their values. The operator's conversions
 * give such a value its canonical spelling through `genruntime.ToEnum` and the generated
 * `<Enum>_Values` maps, so kubectl-aso's conversions must know the same values to agree with it.
 */
export class OperatorGoSource {
  readonly dir: string;
  private readonly packages = new Map<string, GoPackage>();

  private constructor(dir: string) {
    this.dir = dir;
  }

  /** The source at `dir`, or none when the folder is not there (the import then keeps what it had). */
  static at(dir: string): OperatorGoSource | undefined {
    return existsSync(join(dir, 'api')) ? new OperatorGoSource(dir) : undefined;
  }

  /**
   * Enum values by status property path (`provisioningState`, `primaryEndpoints.microsoftEndpoints...`,
   * `properties.provisioningState`) of the kind at the operator's version (`storage`, `v20250601`). For a
   * oneOf kind, `leaf` names the status property holding one leaf (Kusto Database's `readWrite`): the paths
   * are then relative to that leaf, as its ARM body has them.
   */
  statusEnums(
    group: string,
    version: string,
    kind: string,
    leaf?: string,
  ): ReadonlyMap<string, readonly string[]> {
    const pkg = this.package(group, version);
    const out = new Map<string, readonly string[]>();
    const walk = (typeName: string, path: string, depth: number) => {
      if (depth > 20) return;
      for (const field of pkg.structs.get(typeName) ?? []) {
        // At the root, `properties_type` is ARM's `properties.type` (reverse.ts gives it ARM's name back).
        let at = path === '' ? armNameInProperties(field.json) : `${path}.${field.json}`;
        let type = field.type.replace(/^\*/, '');
        for (;;) {
          if (type.startsWith('[]')) {
            at = `${at}[]`;
            type = type.slice(2).replace(/^\*/, '');
          } else if (type.startsWith('map[string]')) {
            at = `${at}{}`;
            type = type.slice('map[string]'.length).replace(/^\*/, '');
          } else break;
        }
        const values = pkg.enums.get(type);
        if (values) out.set(at, values);
        else if (pkg.structs.has(type)) walk(type, at, depth + 1);
      }
    };
    // The status type the resource's own `status` field has: usually `<Kind>_STATUS`, but Redis's linked
    // server's is `Redis_LinkedServer_STATUS` (`RedisLinkedServer_STATUS` is another type, Redis's list entry).
    const statusField = pkg.structs.get(kind)?.find((f) => f.json === 'status');
    const root = statusField ? statusField.type.replace(/^\*/, '') : `${kind}_STATUS`;
    if (!pkg.structs.has(root)) throw new OperatorGoSourceMissing(pkg.dir, `the Go type ${root}`);
    if (leaf === undefined) walk(root, '', 0);
    else {
      const type = pkg.structs
        .get(root)
        ?.find((f) => f.json === leaf)
        ?.type.replace(/^\*/, '');
      if (type === undefined || !pkg.structs.has(type))
        throw new OperatorGoSourceMissing(pkg.dir, `the oneOf leaf ${root}.${leaf}`);
      walk(type, '', 0);
    }
    return out;
  }

  /**
   * The name the operator always gives a kind in ARM, where its Go type's `AzureName()` returns a literal
   * (API Management's policies are always `policy`) and its CRD has neither `azureName` nor a fixed last
   * segment in the ARM URI (`.../policies/{policyId}`).
   */
  fixedAzureName(group: string, version: string, kind: string): string | undefined {
    return this.package(group, version).fixedNames.get(kind);
  }

  private package(group: string, version: string): GoPackage {
    const dir = join(this.dir, 'api', group, version);
    let pkg = this.packages.get(dir);
    if (!pkg) {
      if (!existsSync(dir)) throw new OperatorGoSourceMissing(dir, `the Go package ${group}/${version}`);
      pkg = readPackage(dir);
      this.packages.set(dir, pkg);
    }
    return pkg;
  }
}

interface GoPackage {
  readonly dir: string;
  readonly structs: ReadonlyMap<string, readonly GoField[]>;
  /** Enum type -> its values, in the order of its generated `_Values` map. */
  readonly enums: ReadonlyMap<string, readonly string[]>;
  /** Kind -> the literal its `AzureName()` returns, for kinds whose ARM name is fixed. */
  readonly fixedNames: ReadonlyMap<string, string>;
}

/** The struct fields (with JSON names) and the enum value maps of one generated Go package. */
function readPackage(dir: string): GoPackage {
  const structs = new Map<string, GoField[]>();
  const constants = new Map<string, string>();
  const valueMaps = new Map<string, string[]>();
  const fixedNames = new Map<string, string>();
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('_types_gen.go'))
    .sort();
  for (const file of files) {
    const text = readFileSync(join(dir, file), 'utf8');
    for (const m of text.matchAll(/^type (\w+) struct \{\n([\s\S]*?)^\}/gm)) {
      const fields: GoField[] = [];
      for (const f of (m[2] ?? '').matchAll(/^\t\w+\s+(\S+)\s+`json:"([^",]*)/gm))
        if (f[2] && f[2] !== '-') fields.push({ json: f[2], type: f[1] ?? '' });
      structs.set(m[1] ?? '', fields);
    }
    for (const f of text.matchAll(/^func \(\w+ \*(\w+)\) AzureName\(\) string \{\n\treturn "([^"]*)"\n\}/gm))
      fixedNames.set(f[1] ?? '', f[2] ?? '');
    // In a const block (`\tX_Hot = X("Hot")`) or alone (`const X_ReadWrite = X("ReadWrite")`).
    for (const c of text.matchAll(/^(?:\t|const )(\w+)\s*=\s*\w+\("([^"]*)"\)/gm))
      constants.set(c[1] ?? '', c[2] ?? '');
    // `var accessTier_STATUS_Values = map[string]AccessTier_STATUS{...}`: keyed by the enum type it maps to.
    for (const v of text.matchAll(/^var \w+_Values = map\[string\](\w+)\{\n([\s\S]*?)^\}/gm)) {
      const names = [...(v[2] ?? '').matchAll(/^\t"[^"]*":\s*(\w+),/gm)].map((e) => e[1] ?? '');
      valueMaps.set(v[1] ?? '', names);
    }
  }
  const enums = new Map<string, string[]>();
  for (const [type, names] of valueMaps) {
    const values = names.map((n) => {
      const value = constants.get(n);
      if (value === undefined)
        throw new Error(`${dir}: ${type}_Values names ${n}, which no constant defines`);
      return value;
    });
    enums.set(type, values);
  }
  return { dir, structs, enums, fixedNames };
}
