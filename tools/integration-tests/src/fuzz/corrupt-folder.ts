/** A seeded corruption of one file of a model folder: what the fuzz test feeds the loader. */
export interface Corruption {
  file: string;
  kind: 'truncate' | 'flip-header-bits' | 'flip-any-bits' | 'absurd-dimension' | 'wrong-type' | 'empty';
  detail: string;
}

const dimensions = [
  'hidden_size',
  'num_hidden_layers',
  'num_attention_heads',
  'num_key_value_heads',
  'intermediate_size',
  'vocab_size',
  'max_position_embeddings',
];
const absurdValues = [0, -1, 1e12, 2 ** 31, 1.5, 1e308, Number.NaN, '12', null, 3];

/** Applies one corruption, chosen by `next`, to a copy of the folder's files. */
export function corruptFolder(files: ReadonlyMap<string, Uint8Array>, next: () => number): { files: Map<string, Uint8Array>; corruption: Corruption } {
  const copy = new Map([...files].map(([name, bytes]) => [name, bytes.slice()]));
  const names = [...copy.keys()];
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const kinds: Corruption['kind'][] = ['truncate', 'flip-header-bits', 'flip-any-bits', 'absurd-dimension', 'wrong-type', 'empty'];
  const kind = pick(kinds);
  if (kind === 'absurd-dimension') {
    const config = JSON.parse(new TextDecoder().decode(copy.get('config.json')!)) as Record<string, unknown>;
    const key = pick(dimensions);
    const value = pick(absurdValues);
    config[key] = typeof value === 'number' && Number.isNaN(value) ? 'NaN' : value;
    copy.set('config.json', new TextEncoder().encode(JSON.stringify(config)));
    return { files: copy, corruption: { file: 'config.json', kind, detail: `${key} = ${JSON.stringify(value)}` } };
  }
  const file = pick(names);
  const bytes = copy.get(file)!;
  if (kind === 'empty') {
    copy.set(file, new Uint8Array(0));
    return { files: copy, corruption: { file, kind, detail: '0 bytes' } };
  }
  if (kind === 'truncate') {
    const length = Math.floor(next() * bytes.length);
    copy.set(file, bytes.subarray(0, length));
    return { files: copy, corruption: { file, kind, detail: `to ${length} of ${bytes.length} bytes` } };
  }
  if (kind === 'wrong-type') {
    const replacement = pick(['[]', '"x"', '42', 'null', '{"model": 5}', '{"added_tokens": "x"}', '{"architectures": 7}']);
    copy.set(file, new TextEncoder().encode(replacement));
    return { files: copy, corruption: { file, kind, detail: replacement } };
  }
  // Bit flips: in the first 256 bytes (headers, JSON keys) or anywhere.
  const span = kind === 'flip-header-bits' ? Math.min(256, bytes.length) : bytes.length;
  const flips = 1 + Math.floor(next() * 4);
  const positions: number[] = [];
  for (let index = 0; index < flips && span > 0; index++) {
    const position = Math.floor(next() * span);
    bytes[position]! ^= 1 << Math.floor(next() * 8);
    positions.push(position);
  }
  return { files: copy, corruption: { file, kind, detail: `bits flipped at bytes ${positions.join(', ')}` } };
}
