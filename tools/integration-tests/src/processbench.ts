import { readFileSync } from 'node:fs';
import { sharedDataPath } from '@reward-lens/test-data';

export interface ProcessBenchItem {
  id: string;
  generator: string;
  problem: string;
  steps: string[];
  final_answer_correct: boolean;
  /** 0-based index of the earliest wrong step, or -1. */
  label: number;
}

/** ProcessBench's GSM8K split (400 items), read from the shared data. */
export function processBenchGsm8k(): ProcessBenchItem[] {
  return JSON.parse(readFileSync(sharedDataPath('processbench/gsm8k.json'), 'utf8')) as ProcessBenchItem[];
}
