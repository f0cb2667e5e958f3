import type { Explanation } from '../explain/explain.ts';
import type { RenderContext } from './output.ts';
import { printable } from './printable.ts';
import { wrapText } from './tree-view.ts';

/**
 * An explanation in a few lines: the chain of waits from the named object down to the cause, then the
 * cause with its condition message in full (wrapped to `wrapWidth`, never cut), how the operator's code
 * classes it, whether the operator retries it, and the next step.
 */
export function explainView(wrapWidth: number): (explanation: Explanation, context: RenderContext) => string {
  return (explanation) => {
    const [first] = explanation.steps;
    if (explanation.class === 'ready')
      return `${printable(first?.label ?? '')} is Ready: nothing to explain.\n`;
    const lines: string[] = [];
    for (const step of explanation.steps.slice(1)) {
      lines.push(`waits for ${printable(step.label)} (${printable(step.via ?? '')})`);
    }
    const { cause } = explanation;
    const state =
      explanation.class === 'missing'
        ? 'Missing'
        : explanation.class === 'unreadable'
          ? 'Unknown (not readable)'
          : [explanation.steps.at(-1)?.state, cause.reason].filter(Boolean).join(', ');
    lines.push(
      `cause:   ${printable(cause.label)}: ${printable(state)}${explanation.class === 'cycle' ? ' (a cycle: it waits for an object that waits for it)' : ''}`,
    );
    const indent = '         ';
    if (cause.message) {
      const width = Math.max(20, wrapWidth - indent.length);
      wrapText(printable(cause.message), width).forEach((text, index) => {
        lines.push(`${index === 0 ? 'message: ' : indent}${text}`);
      });
    }
    lines.push(`class:   ${printable(cause.classification)}`);
    lines.push(`retries: ${cause.retries}`);
    lines.push(`next:    ${printable(cause.next)}`);
    return `${printable(first?.label ?? '')} is not Ready.\n${lines.join('\n')}\n`;
  };
}
