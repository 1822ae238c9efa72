import { describe, expect, it } from 'vitest';
import { createRulePrm } from '../testing/rule-prm.js';
import { meterProcessRM } from './meter-process-rm.js';

describe('meterProcessRM', () => {
  it('scores as the PRM it wraps, keeps its notes and counts the tokens it runs', async () => {
    const { prm } = createRulePrm();
    const { prm: metered, meter } = meterProcessRM(prm);
    const input = { problem: 'What is 2 + 3?', steps: ['2 + 3 = 5', 'So the answer is 5'] };
    const [plain, counted] = [await prm.stepScores([input]), await metered.stepScores([input])];
    expect(counted.value).toEqual(plain.value);
    expect(metered.notes).toEqual(prm.notes);
    expect(meter.forwardCalls).toBe(1);
    expect(meter.tokensSeen).toBeGreaterThan(0);
  });
});
