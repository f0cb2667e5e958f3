import { describe, expect, it } from 'vitest';
import { noProgress, spinnerFor } from '../../../src/lib/adoption/progress.ts';

function terminal(isTTY: boolean) {
  const written: string[] = [];
  return { stream: { isTTY, write: (text: string) => written.push(text) }, written };
}

describe('spinnerFor', () => {
  it('on a terminal with a table: shows n/total on one line, then clears it', async () => {
    const { stream, written } = terminal(true);
    const spinner = spinnerFor(stream, 'table', 5);
    spinner.report(0, 3);
    spinner.report(2, 3);
    await new Promise((resolve) => setTimeout(resolve, 30));
    spinner.report(3, 3);
    await new Promise((resolve) => setTimeout(resolve, 30));
    spinner.stop();
    expect(written[0]?.startsWith('\r')).toBe(true);
    expect(written[0]?.endsWith(' checking in Azure 0/3\u001b[K')).toBe(true);
    expect(written.some((w) => w.includes('checking in Azure 3/3'))).toBe(true);
    expect(written.every((w) => w.startsWith('\r') && !w.includes('\n'))).toBe(true);
    expect(written.at(-1)).toBe('\r\x1b[K');
    const after = written.length;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(written.length).toBe(after);
  });

  it('prints nothing when stderr is not a terminal, or the output is JSON or YAML', () => {
    expect(spinnerFor(terminal(false).stream, 'table')).toBe(noProgress);
    expect(spinnerFor(terminal(true).stream, 'json')).toBe(noProgress);
    expect(spinnerFor(terminal(true).stream, 'yaml')).toBe(noProgress);
    expect(spinnerFor(terminal(true).stream, 'wide')).not.toBe(noProgress);
  });
});
