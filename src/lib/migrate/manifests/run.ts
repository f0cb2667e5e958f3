import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { type FileWrite, writeFilesAtomically } from '../../atomic-write.ts';
import { type AsoError, UsageError } from '../../errors.ts';
import type { ExitCodeName } from '../../exit-codes.ts';
import { refuseRewriteIn } from '../../manifests/decode.ts';
import { type ManifestInput, readManifestTexts } from '../../manifests/read.ts';
import type { TargetSpec } from '../target.ts';
import { type ConvertedFile, convertManifestFiles, failureOf } from './convert-files.ts';
import type { CrdSchemas, ObjectResult } from './convert-object.ts';
import { unifiedDiffOfPieces } from './diff.ts';

/** Where converted manifests go: stdout (the default), back into their files, or under a folder. */
export type ManifestDestination = { to: 'stdout' } | { to: 'write' } | { to: 'dir'; dir: string };

/** Everything a manifest run needs besides the cluster. */
export interface ManifestRunOptions {
  input: ManifestInput;
  target: TargetSpec;
  targetText: string;
  destination: ManifestDestination;
  /**
   * Print a unified diff instead of the converted YAML (files are still written with `--write` or
   * `--output-dir`); the exit code then says whether anything changed, as `kubectl diff`'s does.
   */
  diff: boolean;
  allowLoss: boolean;
  /** Write what converted even when some objects did not, leaving those as they were (`--keep-going`). */
  keepGoing: boolean;
}

/** One input file in the report. */
export interface ManifestFileReport {
  file: string;
  changed: boolean;
  /** Where the converted text was written (`--write`, `--output-dir`). */
  writtenTo?: string;
}

/** What `migrate -f` prints with `-o json`, and what its human lines are made from. */
export interface ManifestReport {
  target: string;
  files: ManifestFileReport[];
  objects: ObjectResult[];
  /** Renames that could not be checked against a CRD, values dropped under --allow-loss, and the like. */
  warnings: string[];
  /** With `--keep-going`: each object that could not be converted and was left as it was (file, line, reason). */
  failures: string[];
}

/** The report, the text for stdout (converted YAML or a diff), and the exit code. */
export interface ManifestOutcome {
  report: ManifestReport;
  stdout: string;
  exit: ExitCodeName;
  /** With `--keep-going`, the objects that failed, as one error to report after the output. */
  failure?: AsoError | undefined;
}

/**
 * Runs `migrate -f`: reads the files, converts every ASO object in memory (refusing losses), and only when
 * all of it succeeded writes anything: all files or none, each atomically (a temporary file renamed over
 * the original or into the output folder), so no file is ever left half-written and no run half done. With `--diff` the exit code is
 * `manifestsChanged` when any file would change, as `kubectl diff` tells differences by its exit code.
 * With `--keep-going` the files are written with every object that failed left as it was, and the
 * outcome carries the failures, whose exit code wins.
 */
export async function runManifestMigration(
  options: ManifestRunOptions,
  schemas: CrdSchemas,
): Promise<ManifestOutcome> {
  const texts = readManifestTexts(options.input);
  if (options.destination.to === 'write' && texts.some((text) => text.entry === '-')) {
    throw new UsageError('--write cannot write back to stdin; use --output-dir or print to stdout');
  }
  const converted = await convertManifestFiles(
    texts,
    { target: options.target, allowLoss: options.allowLoss },
    schemas,
  );
  const failure = failureOf(converted, options.keepGoing);
  if (failure && !options.keepGoing) throw failure;
  if (options.destination.to === 'write') {
    for (const file of converted.files)
      if (file.after !== file.before) refuseRewriteIn(file.file, file.encoding);
  }
  const targets = destinations(converted.files, options.destination);
  const files: ManifestFileReport[] = converted.files.map((file, i) => {
    const changed = file.after !== file.before;
    const writtenTo = targets[i];
    return { file: file.file, changed, ...(writtenTo !== undefined ? { writtenTo } : {}) };
  });
  const writes: FileWrite[] = converted.files.flatMap((file, i) => {
    const target = targets[i];
    if (target === undefined) return [];
    return [{ target, text: file.after, ...(file.entry === '-' ? {} : { modeFrom: file.file }) }];
  });
  writeFilesAtomically(writes);
  const stdout = options.diff
    ? converted.files.map((file) => unifiedDiffOfPieces(file.file, file.pieces)).join('')
    : options.destination.to === 'stdout'
      ? joinDocuments(converted.files.map((file) => file.after))
      : '';
  const report: ManifestReport = {
    target: options.targetText,
    files,
    objects: converted.objects,
    warnings: warningsOf(converted.objects),
    failures: converted.failures.map((f) => f.message),
  };
  const changed = files.some((file) => file.changed);
  if (failure) return { report, stdout, exit: failure.exit, failure };
  return { report, stdout, exit: options.diff && changed ? 'manifestsChanged' : 'ok' };
}

/** Files printed one after another form one YAML stream: a `---` between them unless one is there. */
function joinDocuments(texts: string[]): string {
  let out = '';
  for (const text of texts) {
    if (text.trim() === '') continue;
    if (out !== '') {
      if (!out.endsWith('\n')) out += '\n';
      if (!/^---/.test(text.replace(/^(#[^\n]*\n|\s*\n)*/, ''))) out += '---\n';
    }
    out += text;
  }
  return out;
}

/**
 * Where each file is written, or undefined for not at all. `--write` rewrites only the files that change.
 * `--output-dir` writes every file, so the folder is a complete converted copy: a file given by name
 * lands under its own name, a file found in a folder keeps its path below that folder, stdin is
 * `stdin.yaml`. Two different inputs landing on one path is a usage error, found before anything is written;
 * one file named twice lands once.
 */
function destinations(files: ConvertedFile[], destination: ManifestDestination): Array<string | undefined> {
  if (destination.to === 'stdout') return files.map(() => undefined);
  if (destination.to === 'write')
    return files.map((file) => (file.after !== file.before ? file.file : undefined));
  const seen = new Map<string, string>();
  return files.map((file) => {
    const relative =
      file.entry === '-'
        ? 'stdin.yaml'
        : isDirectory(file.entry)
          ? path.relative(file.entry, file.file)
          : path.basename(file.file);
    const target = path.join(destination.dir, relative);
    const other = seen.get(target);
    if (other !== undefined && !sameFile(other, file.file))
      throw new UsageError(`--output-dir: ${other} and ${file.file} would both be written to ${target}`);
    seen.set(target, file.file);
    return target;
  });
}

/** One file named twice (`-f a.yaml -f a.yaml`, or by a link) is written once, not refused. */
function sameFile(one: string, other: string): boolean {
  if (one === '<stdin>' || other === '<stdin>') return false;
  try {
    return realpathSync(one) === realpathSync(other);
  } catch {
    return false;
  }
}

function isDirectory(entry: string): boolean {
  try {
    return statSync(entry).isDirectory();
  } catch {
    return false;
  }
}

function warningsOf(objects: ObjectResult[]): string[] {
  const warnings: string[] = [];
  for (const object of objects) {
    const what = `${object.source} ${object.kind}/${object.name}`;
    if (object.how === 'renamed' && object.verified === false) {
      warnings.push(`${what}: renamed ${object.from} -> ${object.to} UNVERIFIED (${object.note})`);
    }
    if (object.how === 'converted' && object.verified === false) {
      warnings.push(
        `${what}: ${object.carried.join(', ')} carried over to ${object.to} UNVERIFIED (${object.note})`,
      );
    }
    if (object.dropped.length > 0) {
      warnings.push(`${what}: --allow-loss dropped ${object.dropped.join(', ')} (not held by ${object.to})`);
    }
  }
  return warnings;
}
