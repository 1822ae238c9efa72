import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Capability, capabilitiesOf, capabilityNamesOf, formatCapabilities, hasCapability, parseCapabilities, type CapabilityName } from './capabilities.js';

describe('capabilities', () => {
  it('formats the tiny backend set in declaration order', () => {
    const caps = capabilitiesOf('STEP_SCORES', 'LINEAR_READOUT', 'SCORES', 'ACTIVATIONS', 'PREFIX_SCORES');
    expect(formatCapabilities(caps)).toBe('SCORES|PREFIX_SCORES|ACTIVATIONS|LINEAR_READOUT|STEP_SCORES');
    expect(hasCapability(caps, 'GRADIENTS')).toBe(false);
    expect(hasCapability(caps, 'STEP_SCORES')).toBe(true);
    expect(formatCapabilities(0)).toBe('NONE');
  });

  it('parses its own readable form back, for every subset', () => {
    const names = Object.keys(Capability) as CapabilityName[];
    fc.assert(
      fc.property(fc.subarray(names), (subset) => {
        const caps = capabilitiesOf(...subset);
        expect(parseCapabilities(formatCapabilities(caps))).toBe(caps);
        expect(capabilityNamesOf(caps).sort()).toEqual([...subset].sort());
      }),
    );
  });

  it('rejects unknown names', () => {
    expect(() => parseCapabilities('SCORES|TELEPATHY')).toThrow(/Unknown capability "TELEPATHY"/);
  });
});
