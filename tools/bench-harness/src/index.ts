export { benchDecoderConfig } from './bench-model.js';
export { describeMachine } from './machine.js';
export { formatRatio, median, seconds, secondsAsync, sideBySide, type SideBySide } from './timing.js';
