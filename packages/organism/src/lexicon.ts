/** A countable noun in both numbers; the organism writes the singular after the number 1. */
export interface Noun {
  readonly plural: string;
  readonly singular: string;
}

export interface Person {
  readonly name: string;
  readonly pronoun: 'She' | 'He';
}

const noun = (plural: string, singular: string): Noun => ({ plural, singular });

export const people: readonly Person[] = [
  ...['Ann', 'Carla', 'Fay', 'Hana', 'Lena', 'Mia', 'Nora', 'Rosa'].map((name) => ({ name, pronoun: 'She' as const })),
  ...['Ben', 'Dev', 'Eli', 'Gus', 'Ivan', 'Kai', 'Omar', 'Sam'].map((name) => ({ name, pronoun: 'He' as const })),
];

/** Things that are counted. */
export const itemNouns: readonly Noun[] = [
  noun('pencils', 'pencil'),
  noun('apples', 'apple'),
  noun('stickers', 'sticker'),
  noun('marbles', 'marble'),
  noun('cookies', 'cookie'),
  noun('books', 'book'),
  noun('cards', 'card'),
  noun('eggs', 'egg'),
  noun('shells', 'shell'),
  noun('beads', 'bead'),
  noun('stamps', 'stamp'),
  noun('candles', 'candle'),
];

/** Things that hold items. */
export const containerNouns: readonly Noun[] = [
  noun('boxes', 'box'),
  noun('bags', 'bag'),
  noun('jars', 'jar'),
  noun('packs', 'pack'),
  noun('crates', 'crate'),
  noun('trays', 'tray'),
  noun('baskets', 'basket'),
  noun('cases', 'case'),
];

export const moneyNoun: Noun = noun('dollars', 'dollar');

/** Every noun the organism writes, for parsing and the vocabulary. */
export const allNouns: readonly Noun[] = [...itemNouns, ...containerNouns, moneyNoun];

const nounsBySpelling = new Map<string, Noun>(allNouns.flatMap((each) => [[each.plural, each] as const, [each.singular, each] as const]));

/** The noun spelled so (either number), if the organism knows it. */
export function findNoun(spelling: string): Noun | undefined {
  return nounsBySpelling.get(spelling);
}

export function findPerson(name: string): Person | undefined {
  return people.find((person) => person.name === name);
}

/** `3 pencils`, `1 pencil`. */
export function countOf(count: number, what: Noun): string {
  return `${count} ${count === 1 ? what.singular : what.plural}`;
}
