import { ProcessRM } from '@reward-lens/core';
import { type BackendMeter, meterBackend } from './meter-backend.js';

/**
 * The same PRM over a metered backend (`meterBackend`): its recipe, notes and calibration carry
 * over, and its delimiter, truncation and batch size are the defaults, so it scores as `prm` does
 * while `meter` counts the tokens it runs. Disposing the metered PRM disposes `prm`'s backend.
 *
 * @example
 * const { prm: metered, meter } = meterProcessRM(await ProcessRM.fromTiny({ seed: 0 }));
 * const result = await search(metered, policy, problem, { strategy: 'beam', n: 8, meter });
 */
export function meterProcessRM(prm: ProcessRM): { prm: ProcessRM; meter: BackendMeter } {
  const meter = meterBackend(prm.backend);
  const metered = ProcessRM.fromBackend(meter, prm.tokenizer, {
    recipe: prm.recipe,
    notes: prm.notes,
    ...(prm.calibration !== undefined ? { calibration: prm.calibration } : {}),
  });
  return { prm: metered, meter };
}
