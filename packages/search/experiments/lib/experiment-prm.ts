import '@reward-lens/backend-tiny/register';
import { ProcessRM } from '@reward-lens/core';
import { meterBackend, type BackendMeter } from '../../src/index.js';
import { createVerifierPrm } from './verifier-prm.js';

/**
 * The PRM an experiment uses unless told otherwise. The seeded tiny model (random weights: its
 * scores carry no meaning) until `@reward-lens/model-default` lands; then this one line loads it.
 */
export const defaultPrm = { name: 'the seeded tiny model (random weights)', load: () => ProcessRM.fromTiny({ seed: 0 }) };

export interface ExperimentPrm {
  prm: ProcessRM;
  /** Counts the tokens the PRM runs. */
  meter: BackendMeter;
  description: string;
  dispose(): Promise<void>;
}

/** `default`, `verifier` (the organism's verifier as a PRM: the ceiling), or a model folder. */
export async function loadExperimentPrm(spec = 'default'): Promise<ExperimentPrm> {
  let base: ProcessRM;
  let description: string;
  if (spec === 'default') {
    base = await defaultPrm.load();
    description = defaultPrm.name;
  } else if (spec === 'verifier') {
    base = createVerifierPrm().prm;
    description = "the organism's verifier (a step scores 1 while the solution has no error)";
  } else {
    base = await ProcessRM.fromPretrained(spec, { backend: 'tiny' });
    description = `the model in ${spec}`;
  }
  const meter = meterBackend(base.backend);
  const prm = ProcessRM.fromBackend(meter, base.tokenizer, { recipe: base.recipe });
  return { prm, meter, description, dispose: () => base.dispose() };
}
