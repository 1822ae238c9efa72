/**
 * Balanced `{...}` groups in LaTeX. Escaped braces (`\{`, `\}`, set notation) are text, not
 * grouping, so `\boxed{\{1, 2\}}` holds `\{1, 2\}`.
 */

/** The group opened at `open` (which must hold `{`): its content and the index after its `}`; null when never closed. */
export function readGroup(text: string, open: number): { content: string; end: number } | null {
  if (text[open] !== '{') return null;
  let depth = 0;
  for (let index = open; index < text.length; index++) {
    const char = text[index];
    if (char === '\\') {
      index++;
      continue;
    }
    if (char === '{') depth++;
    else if (char === '}') {
      depth--;
      if (depth === 0) return { content: text.slice(open + 1, index), end: index + 1 };
    }
  }
  return null;
}

/** Where `\name` occurs as a whole command (not `\boxedx`), for each name, in order. */
export function commandPositions(text: string, names: readonly string[]): { at: number; name: string }[] {
  const found: { at: number; name: string }[] = [];
  const pattern = new RegExp(`\\\\(${names.join('|')})(?![A-Za-z])`, 'g');
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) found.push({ at: match.index, name: match[1]! });
  return found;
}

/**
 * The argument of the last `\name` command with one: `{...}` (balanced), or, as `\boxed 5`
 * is written, the text up to the next `$` or end of line. Its span covers the command.
 */
export function lastCommandArgument(text: string, names: readonly string[]): { content: string; start: number; end: number } | null {
  const positions = commandPositions(text, names);
  for (let index = positions.length - 1; index >= 0; index--) {
    const { at, name } = positions[index]!;
    let cursor = at + 1 + name.length;
    while (text[cursor] === ' ') cursor++;
    if (text[cursor] === '{') {
      const group = readGroup(text, cursor);
      if (group) return { content: group.content, start: at, end: group.end };
      continue;
    }
    const rest = /^[^$\n]+/.exec(text.slice(cursor));
    if (rest && cursor > at + 1 + name.length) return { content: rest[0].trim(), start: at, end: cursor + rest[0].length };
  }
  return null;
}

/** Replaces every `\name{X}` by `X` (innermost first), keeping the rest; unclosed groups are left as they are. */
export function unwrapCommands(text: string, names: readonly string[]): string {
  let result = text;
  for (let guard = 0; guard < 64; guard++) {
    const positions = commandPositions(result, names);
    let changed = false;
    for (let index = positions.length - 1; index >= 0; index--) {
      const { at, name } = positions[index]!;
      let cursor = at + 1 + name.length;
      while (result[cursor] === ' ') cursor++;
      const group = readGroup(result, cursor);
      if (!group) continue;
      result = result.slice(0, at) + group.content + result.slice(group.end);
      changed = true;
      break;
    }
    if (!changed) return result;
  }
  return result;
}

/** Drops every `\name{X}` with its argument. */
export function removeCommands(text: string, names: readonly string[]): string {
  let result = text;
  for (let guard = 0; guard < 64; guard++) {
    const positions = commandPositions(result, names);
    const last = positions.at(-1);
    if (!last) return result;
    let cursor = last.at + 1 + last.name.length;
    while (result[cursor] === ' ') cursor++;
    const group = readGroup(result, cursor);
    result = group ? result.slice(0, last.at) + result.slice(group.end) : result.slice(0, last.at) + result.slice(cursor);
  }
  return result;
}
