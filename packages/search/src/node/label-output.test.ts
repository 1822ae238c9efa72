import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { labelOutputKind } from './label-output.js';

const root = await mkdtemp(join(tmpdir(), 'reward-lens-label-output-'));
afterAll(() => rm(root, { recursive: true, force: true }));

describe('labelOutputKind', () => {
  it('tells a new output, a run to resume (its state journal beside it) and a file that is not a label run apart', async () => {
    expect(await labelOutputKind(join(root, 'new.jsonl'))).toBe('none');
    await writeFile(join(root, 'run.jsonl'), '');
    await writeFile(join(root, 'run.jsonl.state.jsonl'), '');
    expect(await labelOutputKind(join(root, 'run.jsonl'))).toBe('resumable');
    await writeFile(join(root, 'notes.jsonl'), 'mine\n');
    expect(await labelOutputKind(join(root, 'notes.jsonl'))).toBe('other');
    expect(await labelOutputKind(join(root, 'notes.jsonl'), join(root, 'run.jsonl.state.jsonl'))).toBe('resumable');
  });
});
