import { type CompletionCommand, completionPlan } from './completion.ts';

/**
 * Answers one completion request in cobra's format, which kubectl passes on to the shell: one candidate
 * per line, then `:<directive>`. `words` are the plugin's arguments as kubectl hands them to
 * `kubectl_complete-aso` (the last is the word being typed); `commands` come from oclif's manifest. Never
 * writes to stderr, which kubectl shows in the middle of the user's command line.
 */
export async function runCompletion(
  words: readonly string[],
  commands: Record<string, CompletionCommand>,
  write: (text: string) => void = (text) => process.stdout.write(text),
): Promise<void> {
  const plan = completionPlan(words, commands);
  const lines = [...plan.candidates];
  if (plan.dynamic) {
    const { values, typed, prefix } = plan.dynamic;
    // Only values from the cluster need the kube client; fixed values answer without loading it.
    const { dynamicValues, matchingValues } = await import('./completion-values.ts');
    const all = await dynamicValues(values, plan.connection);
    lines.push(...matchingValues(values, all, typed).map((value) => `${prefix}${value}`));
  }
  write(`${[...lines, `:${plan.directive}`].join('\n')}\n`);
}
