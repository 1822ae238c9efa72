import { median } from '@reward-lens/bench-harness';
import { ProcessRM, createByteBpeTokenizer, createRandomDecoder, type BackendV1, type DecoderConfig } from '@reward-lens/core';
import { createTinyBackend } from '@reward-lens/backend-tiny';
import { beamSearch, meterBackend, type SearchResult } from '../src/index.js';
import { createScriptedPolicy } from '../src/testing/index.js';

const depth = 8;
const problem =
  'A shop packs pencils in boxes of 12 and sells each box for 3 dollars. On Monday it sold 48 pencils, on Tuesday twice as many, and on Wednesday 36 fewer than on Tuesday. How much money did it take in over the three days?';

/**
 * A deterministic branching policy, 8 steps deep: at every prefix five different next steps (a
 * computation each), the eighth stating an answer. `ending` closes every step: "." (as solutions
 * are written) or "" (a step end the byte-BPE does not merge with the "\n" after it).
 */
function benchPolicy(ending: string) {
  return createScriptedPolicy({
    script: (_problem, steps) =>
      steps.length >= depth
        ? undefined
        : Array.from({ length: 5 }, (_, option) => {
            const a = 12 * (steps.length + 1) + option;
            const b = 3 + option * steps.length;
            return steps.length === depth - 1
              ? `So the shop took in ${a} + ${b} = ${a + b} dollars, and the answer is \\boxed{${a + b}}`
              : `Step ${steps.length + 1}: the running total is ${a} + ${b} = ${a + b} pencils${ending}`;
          }),
  });
}

function sameSearch(left: SearchResult, right: SearchResult): boolean {
  return (
    left.pick === right.pick &&
    JSON.stringify(left.solutions.map((solution) => solution.steps)) === JSON.stringify(right.solutions.map((solution) => solution.steps))
  );
}

/**
 * Beam search (n 8, beam width 2, 8 steps) scoring new steps on the cached prefixes against the
 * same search re-scoring every candidate prefix from the start (as Python search libraries do),
 * alternated pair by pair. Throws unless both pick the same solution every time.
 */
export async function compareBeamScoring(config: DecoderConfig, pairs: number): Promise<void> {
  const backend: BackendV1 = createTinyBackend(createRandomDecoder({ seed: 0, config }));
  const meter = meterBackend(backend);
  const prm = ProcessRM.fromBackend(meter, createByteBpeTokenizer());
  console.log(
    `\nbeam search, n 8, beam width 2, ${depth} steps: scoring time, incremental (ScoredPrefix.extendAll) vs re-scoring every prefix (medians of ${pairs} alternated pairs)`,
  );
  for (const [label, ending] of [
    ['steps ending "."', '.'],
    ['steps ending without a boundary merge', ''],
  ] as const) {
    const run = (scoring: 'incremental' | 'full') => beamSearch(prm, benchPolicy(ending), problem, { n: 8, beamWidth: 2, maxSteps: depth, scoring, meter });
    await run('incremental');
    await run('full');
    const ratios: number[] = [];
    const times = { incremental: [] as number[], full: [] as number[] };
    let tokens = { incremental: 0, full: 0 };
    let identical = true;
    for (let pair = 0; pair < pairs; pair++) {
      const incremental = await run('incremental');
      const full = await run('full');
      identical &&= sameSearch(incremental, full);
      times.incremental.push(incremental.counts.scoringMs);
      times.full.push(full.counts.scoringMs);
      ratios.push(full.counts.scoringMs / incremental.counts.scoringMs);
      tokens = { incremental: incremental.counts.scoredTokens, full: full.counts.scoredTokens };
    }
    console.log(
      `  ${label.padEnd(40)} incremental ${median(times.incremental).toFixed(0).padStart(6)} ms (${tokens.incremental} tokens)   full ${median(times.full).toFixed(0).padStart(6)} ms (${tokens.full} tokens)   full/incremental ${median(ratios).toFixed(2)}×   identical picks: ${identical ? 'yes' : 'NO'}`,
    );
    if (!identical) throw new Error(`incremental and full scoring picked differently (${label})`);
  }
  await prm.dispose();
}
