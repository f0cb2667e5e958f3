// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const anyControl = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const control = /[\u0000-\u001f\u007f-\u009f]/g;
// Bidirectional controls: invisible, yet they reorder what follows (a file name `x\u202Egnp.yaml` reads
// as `xlmay.png`), so a name or message could look like another.
const bidi = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Text from the cluster or the user's files made safe for a terminal: C0 and C1 control characters (ESC
 * included) are shown as `\xNN` escapes, so a name or message cannot move the cursor, recolour or retitle
 * the terminal, and bidirectional controls as `\uNNNN`, so it cannot reorder what is shown. Line breaks
 * and tabs become spaces first, so a multi-line message stays readable on one line. JSON and YAML output
 * keep the exact text; only human output goes through this.
 */
export function printable(text: string): string {
  if (!anyControl.test(text)) return text;
  return text
    .replace(/[ \t]*(\r\n|\r|\n)[ \t]*|\t/g, ' ')
    .replace(control, (char) => `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`)
    .replace(bidi, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
