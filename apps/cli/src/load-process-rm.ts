// The CLI registers the tiny backend itself rather than leaning on core's lazy import of it:
// the bundled CLI then always finds it, and the dependency is visible here.
import '@reward-lens/backend-tiny/register';
import { ProcessRM, type StepDelimiter } from '@reward-lens/core';

export interface ModelSettings {
  backend: string;
  seed: number;
  delimiter?: StepDelimiter;
  batchSize?: number;
}

/** The seeded tiny PRM on the requested backend, set up as the command line asked. */
export async function loadProcessRM(settings: ModelSettings): Promise<ProcessRM> {
  return ProcessRM.fromTiny({
    seed: settings.seed,
    backend: settings.backend,
    ...(settings.delimiter !== undefined ? { delimiter: settings.delimiter } : {}),
    ...(settings.batchSize !== undefined ? { batchSize: settings.batchSize } : {}),
  });
}
