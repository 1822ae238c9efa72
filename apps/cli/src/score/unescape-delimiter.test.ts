import { describe, expect, it } from 'vitest';
import { unescapeDelimiter } from './unescape-delimiter.js';

describe('unescapeDelimiter', () => {
  it.each([
    ['\\n\\n', '\n\n'],
    ['\\t', '\t'],
    ['\\r\\n', '\r\n'],
    ['\\\\n', '\\n'],
    [' ки', ' ки'],
    ['\\d', '\\d'],
    ['\n', '\n'],
  ])('%j becomes %j', (typed, delimiter) => {
    expect(unescapeDelimiter(typed)).toBe(delimiter);
  });
});
