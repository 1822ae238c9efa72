import '@reward-lens/backend-tiny/register';
import { ProcessRM } from '@reward-lens/core';
import { defaultModelName, loadDefaultPrm } from '@reward-lens/model-default';
import { meterBackend, type BackendMeter } from '@reward-lens/search';
import { createVerifierPrm } from './verifier-prm.js';

/** The PRM an experiment uses unless told otherwise: the default PRM, raw (its ranking is what search uses). */
export const defaultPrm = { name: `the default PRM (${defaultModelName})`, load: () => loadDefaultPrm({ backend: 'tiny', calibrated: false }) };

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
