/**
 * What a backend (and so a ProcessRM) can do, as a bit set.
 *
 * The readable form joins the names of the set bits in declaration order:
 * `formatCapabilities(caps)` gives `"SCORES|PREFIX_SCORES|ACTIVATIONS|LINEAR_READOUT|STEP_SCORES"`.
 */
export const Capability = {
  /** One outcome scalar per sequence. */
  SCORES: 1 << 0,
  /** The reward read at any token position (and so at every one). */
  PREFIX_SCORES: 1 << 1,
  /** Hidden states of any layer at requested positions. */
  ACTIVATIONS: 1 << 2,
  /** Gradients of a score with respect to inputs or activations. */
  GRADIENTS: 1 << 3,
  /** Hessian-vector products. */
  HVP: 1 << 4,
  /** The reward head applied to the hidden state of any layer. */
  LINEAR_READOUT: 1 << 5,
  /** One score per reasoning step from one forward pass. */
  STEP_SCORES: 1 << 6,
} as const;

export type CapabilityName = keyof typeof Capability;

/** A bit set of {@link Capability} flags. */
export type Capabilities = number;

const capabilityNames = Object.keys(Capability) as CapabilityName[];

export function capabilitiesOf(...names: CapabilityName[]): Capabilities {
  let caps = 0;
  for (const name of names) caps |= Capability[name];
  return caps;
}

export function hasCapability(caps: Capabilities, name: CapabilityName): boolean {
  return (caps & Capability[name]) !== 0;
}

export function capabilityNamesOf(caps: Capabilities): CapabilityName[] {
  return capabilityNames.filter((name) => hasCapability(caps, name));
}

/** `SCORES|PREFIX_SCORES|...`, or `NONE` for the empty set. */
export function formatCapabilities(caps: Capabilities): string {
  const names = capabilityNamesOf(caps);
  return names.length === 0 ? 'NONE' : names.join('|');
}

/** The inverse of {@link formatCapabilities}; unknown names throw. */
export function parseCapabilities(text: string): Capabilities {
  if (text.trim() === 'NONE' || text.trim() === '') return 0;
  let caps = 0;
  for (const part of text.split('|')) {
    const name = part.trim();
    if (!(name in Capability)) throw new RangeError(`Unknown capability "${name}"; known: ${capabilityNames.join(', ')}`);
    caps |= Capability[name as CapabilityName];
  }
  return caps;
}
