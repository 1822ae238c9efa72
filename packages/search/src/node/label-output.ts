import { stat } from 'node:fs/promises';

/** Where a labelling run keeps its state journal when it is not told: beside the output. */
export function defaultStatePath(outputPath: string): string {
  return `${outputPath}.state.jsonl`;
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/**
 * What stands at a labelling run's output path: nothing yet (`none`), an earlier run to resume
 * (`resumable`: its state journal is beside it), or a file that is not such a run (`other`:
 * someone else's, which a caller should replace only when asked to).
 *
 * @example
 * if ((await labelOutputKind('labels.jsonl')) === 'other') throw new Error('labels.jsonl is not a label run');
 */
export async function labelOutputKind(outputPath: string, statePath = defaultStatePath(outputPath)): Promise<'none' | 'resumable' | 'other'> {
  if (!(await exists(outputPath))) return 'none';
  return (await exists(statePath)) ? 'resumable' : 'other';
}
