/** Runs `task` over `inputs` with at most `limit` running at once; rejects with the first task's error. */
export async function forEachBounded<T>(
  inputs: readonly T[],
  limit: number,
  task: (input: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < inputs.length) {
      const input = inputs[next++] as T;
      await task(input);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, inputs.length)) }, worker));
}
