import { findNoun, findPerson, type Noun, type Person } from './lexicon.js';

/**
 * One sentence pattern of the organism's language, written once and used both ways: to write
 * text and to read it back. Slots, in braces:
 * - `{a}`, `{b}`, `{c}`, `{n}` (one lowercase letter): a whole number, written in digits;
 * - `{U}` (an uppercase letter other than N, O, P): a noun, plural; `{U.1}` singular;
 *   `{U:n}` agreeing with the number slot `n` (singular after 1);
 * - `{N}` the protagonist's name, `{O}` another person's name, `{P}` the protagonist's pronoun.
 * Reading accepts either number of a noun (agreement is phrasing, not meaning).
 */
export interface SlotValues {
  numbers: Record<string, number>;
  nouns: Record<string, Noun>;
  /** `N`, `O` (and the pronoun comes from `N`). */
  people: Record<string, Person>;
}

export interface ParsedSlots {
  numbers: Record<string, number>;
  nouns: Record<string, Noun>;
  /** Names as written (`N`, `O`) and `P`, the pronoun. */
  words: Record<string, string>;
}

export interface Template {
  readonly source: string;
  render(values: SlotValues): string;
  /** The slots of `text` when it is this sentence (the whole of it), else null. */
  parse(text: string): ParsedSlots | null;
  /** The literal words and punctuation of the pattern, for the vocabulary. */
  readonly literals: readonly string[];
}

const slotPattern = /\{([A-Za-z])(?:(\.1)|:([a-z]))?\}/g;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export function compileTemplate(source: string): Template {
  let regex = '^';
  let last = 0;
  const seen = new Set<string>();
  for (const match of source.matchAll(slotPattern)) {
    regex += escapeRegExp(source.slice(last, match.index));
    last = match.index + match[0].length;
    const name = match[1]!;
    // A slot named twice must read the same both times: a backreference.
    if (seen.has(name)) {
      regex += `\\k<${name}>`;
      continue;
    }
    seen.add(name);
    if (/[a-z]/.test(name)) regex += `(?<${name}>\\d+)`;
    else if (name === 'N' || name === 'O') regex += `(?<${name}>[A-Z][a-z]+)`;
    else if (name === 'P') regex += '(?<P>She|He)';
    else regex += `(?<${name}>[a-z]+)`;
  }
  regex += `${escapeRegExp(source.slice(last))}$`;
  const compiled = new RegExp(regex);
  // Literal text and slots in order, so that writing a sentence is one pass with no regex.
  const parts: (string | Slot)[] = [];
  let literalFrom = 0;
  for (const match of source.matchAll(slotPattern)) {
    parts.push(source.slice(literalFrom, match.index));
    parts.push({ name: match[1]!, singular: match[2] !== undefined, agreeWith: match[3] });
    literalFrom = match.index + match[0].length;
  }
  parts.push(source.slice(literalFrom));
  const literals = source
    .replace(slotPattern, ' ')
    .split(/\s+|(?=[.?])/)
    .filter((word) => word.length > 0);

  return {
    source,
    literals,
    render(values) {
      let text = '';
      for (const part of parts) {
        if (typeof part === 'string') text += part;
        else text += renderSlot(part, values, source);
      }
      return text;
    },
    parse(text) {
      const groups = compiled.exec(text)?.groups;
      if (groups === undefined) return null;
      const parsed: ParsedSlots = { numbers: {}, nouns: {}, words: {} };
      for (const [name, value] of Object.entries(groups)) {
        if (/[a-z]/.test(name)) {
          const number = Number(value);
          if (!Number.isSafeInteger(number)) return null;
          parsed.numbers[name] = number;
        } else if (name === 'N' || name === 'O') {
          if (findPerson(value) === undefined) return null;
          parsed.words[name] = value;
        } else if (name === 'P') parsed.words.P = value;
        else {
          const found = findNoun(value);
          if (found === undefined) return null;
          parsed.nouns[name] = found;
        }
      }
      return parsed;
    },
  };
}

interface Slot {
  name: string;
  singular: boolean;
  agreeWith: string | undefined;
}

function renderSlot(slot: Slot, values: SlotValues, source: string): string {
  const { name } = slot;
  if (/[a-z]/.test(name)) return String(required(values.numbers[name], source, name));
  if (name === 'N' || name === 'O') return required(values.people[name], source, name).name;
  if (name === 'P') return required(values.people.N, source, 'N').pronoun;
  const what = required(values.nouns[name], source, name);
  if (slot.singular) return what.singular;
  if (slot.agreeWith !== undefined) return required(values.numbers[slot.agreeWith], source, slot.agreeWith) === 1 ? what.singular : what.plural;
  return what.plural;
}

function required<T>(value: T | undefined, source: string, slot: string): T {
  if (value === undefined) throw new Error(`template "${source}" needs a value for {${slot}}`);
  return value;
}
