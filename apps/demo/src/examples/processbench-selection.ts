import { readProcessBenchRecord, type ProcessBenchRecord } from '@reward-lens/organism';

/**
 * Which items of ProcessBench's GSM8K split the demo ships, and in what shape. The split is
 * Apache-2.0 (QwenLM/ProcessBench); the repository holds no copy of it: the build reads the
 * shared file and writes these few items into its output, with the attribution.
 */

export interface ProcessBenchExamples {
  source: string;
  license: string;
  sha256: string;
  items: ProcessBenchRecord[];
  /** Set when the build could not read the split: why, and where it looked. */
  unavailable?: string;
}

/** The published file's digest (../shared/data/README.md): the items are what ProcessBench published. */
export const processBenchSha256 = 'fb1c59dfd1e83e1c5a48dbe598db27e4bc0b8bc524a09445f2d4b69178f61349';

export const processBenchSource = 'QwenLM/ProcessBench, dataset/gsm8k.json (https://github.com/QwenLM/ProcessBench)';

/**
 * The shipped items: gsm8k-0 (the Qwen2.5-Math-PRM card's example, first error at step 1), then
 * short ones with the first error at steps 0, 1 and 2 and two without errors. Their steps hold no
 * line breaks, so one step per line is the same solution.
 */
export const processBenchIds = ['gsm8k-0', 'gsm8k-26', 'gsm8k-147', 'gsm8k-33', 'gsm8k-386', 'gsm8k-370'] as const;

/**
 * The shipped items out of the whole split, in `processBenchIds` order, read as the organism
 * package reads ProcessBench records; a missing item, or one whose steps are not one line each,
 * is an error naming it.
 */
export function selectProcessBenchExamples(records: unknown): ProcessBenchRecord[] {
  if (!Array.isArray(records)) throw new Error('the ProcessBench GSM8K file is not a JSON array');
  const byId = new Map<string, unknown>();
  for (const record of records as { id?: unknown }[]) if (typeof record?.id === 'string') byId.set(record.id, record);
  return processBenchIds.map((id) => {
    if (!byId.has(id)) throw new Error(`ProcessBench item ${id} is not in the file`);
    const record = readProcessBenchRecord(byId.get(id), `ProcessBench item ${id}`);
    if (record.steps.some((step) => /[\r\n]/.test(step) || step.trim() === ''))
      throw new Error(`ProcessBench item ${id} has a step that is not one line of text`);
    return record;
  });
}
