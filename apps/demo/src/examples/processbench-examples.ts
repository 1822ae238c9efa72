import { processBenchAsset } from '../asset-paths.js';
import type { DemoExample } from './demo-example.js';
import type { ProcessBenchRecord } from '@reward-lens/organism';
import type { ProcessBenchExamples } from './processbench-selection.js';

function toExample(item: ProcessBenchRecord): DemoExample {
  const label = item.label === -1 ? 'no error' : `first error at step ${item.label + 1}`;
  return {
    id: item.id,
    group: 'processbench',
    title: `ProcessBench ${item.id}: ${label}`,
    problem: item.problem,
    solution: item.steps.join('\n'),
    firstError: item.label,
    labelNote: `ProcessBench's human label (${label}); solution by ${item.generator}, final answer ${item.final_answer_correct ? 'right' : 'wrong'}`,
  };
}

/** The ProcessBench items the build shipped beside the page, with their attribution; `unavailable` says why there are none. */
export async function loadProcessBenchExamples(): Promise<{ examples: DemoExample[]; attribution: string; unavailable?: string }> {
  const response = await fetch(new URL(processBenchAsset, document.baseURI));
  if (!response.ok) return { examples: [], attribution: '', unavailable: `${processBenchAsset}: HTTP ${response.status}` };
  const shipped = (await response.json()) as ProcessBenchExamples;
  return {
    examples: shipped.items.map(toExample),
    attribution: `${shipped.source}, ${shipped.license}`,
    ...(shipped.unavailable ? { unavailable: shipped.unavailable } : {}),
  };
}
