import { containerNouns, moneyNoun, type Noun } from './lexicon.js';
import type { Operation } from './operations.js';
import { compileTemplate, type Template } from './template.js';

/** What a quantity counts: it decides which sentences make sense next. */
export type UnitKind = 'items' | 'containers' | 'money';

export function unitKindOf(noun: Noun): UnitKind {
  if (noun === moneyNoun) return 'money';
  return containerNouns.includes(noun) ? 'containers' : 'items';
}

/** How a step phrases its computation in words, before ` is a op b = c`. */
export type LeadId = 'plus' | 'more' | 'minus' | 'less' | 'of' | 'at' | 'times' | 'in-of' | 'split' | 'piles';

export interface StartTemplate {
  readonly id: string;
  readonly template: Template;
  readonly kinds: readonly UnitKind[];
}

export interface OperationTemplate {
  readonly id: string;
  readonly operation: Operation;
  readonly template: Template;
  /** The kinds of quantity this sentence applies to. */
  readonly from: readonly UnitKind[];
  /** What the quantity counts afterwards: the same thing, or the noun in the named slot (or money). */
  readonly after: 'same' | 'money' | { slot: string };
  /** How a step that performs this operation phrases it. */
  readonly leads: readonly LeadId[];
}

export interface SentenceTemplate {
  readonly id: string;
  readonly template: Template;
}

// Slots: {N} the protagonist, {P} their pronoun, {O} another person, {n} the sentence's number,
// {U} what the running quantity counts (see template.ts for the syntax).
export const startTemplates: readonly StartTemplate[] = [
  { id: 'has', template: compileTemplate('{N} has {n} {U:n}.'), kinds: ['items', 'containers'] },
  { id: 'starts', template: compileTemplate('{N} starts with {n} {U:n}.'), kinds: ['items'] },
  { id: 'buys', template: compileTemplate('{N} buys {n} {U:n} of {I}.'), kinds: ['containers'] },
];

const additive: LeadId[] = ['plus', 'more'];
const subtractive: LeadId[] = ['minus', 'less'];

export const operationTemplates: readonly OperationTemplate[] = [
  { id: 'add-buy', operation: '+', template: compileTemplate('{P} buys {n} more {U:n}.'), from: ['items', 'containers'], after: 'same', leads: additive },
  { id: 'add-find', operation: '+', template: compileTemplate('{P} finds {n} more {U:n}.'), from: ['items'], after: 'same', leads: additive },
  {
    id: 'add-get',
    operation: '+',
    template: compileTemplate('{P} gets {n} more {U:n} from {O}.'),
    from: ['items', 'containers'],
    after: 'same',
    leads: additive,
  },
  { id: 'add-earn', operation: '+', template: compileTemplate('{P} earns {n} more {U:n}.'), from: ['money'], after: 'same', leads: additive },
  {
    id: 'sub-give',
    operation: '−',
    template: compileTemplate('{P} gives {n} {U:n} to {O}.'),
    from: ['items', 'containers'],
    after: 'same',
    leads: subtractive,
  },
  { id: 'sub-lose', operation: '−', template: compileTemplate('{P} loses {n} {U:n}.'), from: ['items', 'money'], after: 'same', leads: subtractive },
  { id: 'sub-spend', operation: '−', template: compileTemplate('{P} spends {n} {U:n}.'), from: ['money'], after: 'same', leads: subtractive },
  { id: 'sub-use', operation: '−', template: compileTemplate('{P} uses {n} {U:n}.'), from: ['items'], after: 'same', leads: subtractive },
  { id: 'mul-hold', operation: '×', template: compileTemplate('Each {U.1} holds {n} {I:n}.'), from: ['containers'], after: { slot: 'I' }, leads: ['of'] },
  { id: 'mul-price', operation: '×', template: compileTemplate('Each {U.1} sells for {n} dollars.'), from: ['items'], after: 'money', leads: ['at'] },
  {
    id: 'mul-times',
    operation: '×',
    template: compileTemplate('{P} ends up with {n} times as many {U}.'),
    from: ['items', 'containers', 'money'],
    after: 'same',
    leads: ['times'],
  },
  { id: 'div-pack', operation: '÷', template: compileTemplate('{P} packs the {U} into {C} of {n}.'), from: ['items'], after: { slot: 'C' }, leads: ['in-of'] },
  {
    id: 'div-split',
    operation: '÷',
    template: compileTemplate('{P} splits the {U} into {n} equal groups and keeps one group.'),
    from: ['items', 'containers', 'money'],
    after: 'same',
    leads: ['split'],
  },
  {
    id: 'div-pile',
    operation: '÷',
    template: compileTemplate('{P} puts the {U} into {n} equal piles and keeps one pile.'),
    from: ['items', 'containers', 'money'],
    after: 'same',
    leads: ['piles'],
  },
];

/** Sentences with a number the answer does not need (GSM8K's distractors). */
export const distractorTemplates: readonly SentenceTemplate[] = [
  { id: 'other-has', template: compileTemplate('{O} has {n} {X:n}.') },
  { id: 'also-has', template: compileTemplate('{P} also has {n} {X:n}.') },
];

export const questionTemplates: readonly SentenceTemplate[] = [
  { id: 'now', template: compileTemplate('How many {U} does {N} have now?') },
  { id: 'end', template: compileTemplate('How many {U} does {N} have in the end?') },
  { id: 'ends-up', template: compileTemplate('How many {U} does {N} end up with?') },
];

export function operationTemplate(id: string): OperationTemplate {
  const found = operationTemplates.find((template) => template.id === id);
  if (found === undefined) throw new Error(`no operation template "${id}"`);
  return found;
}
