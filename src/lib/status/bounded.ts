/**
 * Runs `task` over `inputs` with at most `limit` running at once; rejects with the first task's error, and
 * starts no further task after one has failed (the caller cancels those still running).
 */
export async function forEachBounded<T>(
  inputs: readonly T[],
  limit: number,
  task: (input: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  let failed = false;
  const worker = async (): Promise<void> => {
    while (!failed && next < inputs.length) {
      const input = inputs[next++] as T;
      try {
        await task(input);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, inputs.length)) }, worker));
}
