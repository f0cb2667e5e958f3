/**
 * Resolves once stdout and stderr have handed the kernel everything written to them before. Node writes to a
 * pipe asynchronously, and exiting drops what is still queued: a run with many warnings, its stderr read by a
 * busy CI job, lost its last ones (tree's "secrets ... are marked unknown", sorted last). Await this before
 * any exit that follows output.
 */
export async function outputDrained(): Promise<void> {
  const drained = (stream: NodeJS.WriteStream) =>
    new Promise<void>((resolve) => {
      if (stream.destroyed || !stream.writable) resolve();
      else stream.write('', () => resolve());
    });
  await Promise.all([drained(process.stdout), drained(process.stderr)]);
}
