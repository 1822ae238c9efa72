import { describe, expect, it } from 'vitest';
import { notesForPair } from './scored-record.js';

describe('notesForPair', () => {
  const notes = ['backend "tiny" ran the model', 'pair 1: no delimiter found', 'pair 12: no delimiter found either'];

  it('gives each pair the shared notes and its own, unprefixed', () => {
    expect(notesForPair(notes, 0, 13)).toEqual(['backend "tiny" ran the model']);
    expect(notesForPair(notes, 1, 13)).toEqual(['backend "tiny" ran the model', 'no delimiter found']);
    expect(notesForPair(notes, 12, 13)).toEqual(['backend "tiny" ran the model', 'no delimiter found either']);
  });

  it('keeps a batch of one as it is (core does not prefix it)', () => {
    expect(notesForPair(['backend "tiny" ran the model', 'no delimiter found'], 0, 1)).toEqual(['backend "tiny" ran the model', 'no delimiter found']);
  });
});
