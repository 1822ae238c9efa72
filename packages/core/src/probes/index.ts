export { describeProbe, probeLogits, sigmoid, validateProbe, type Probe, type ProbeLayer } from './probe.js';
export { fitProbe, type FitProbeOptions } from './fit-probe.js';
