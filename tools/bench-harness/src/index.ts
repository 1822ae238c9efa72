export { benchDecoderConfig, benchDecoderConfig42M } from './bench-model.js';
export { describeMachine } from './machine.js';
export { threadCounts } from './thread-counts.js';
export { useBundledTinyWorker } from './tiny-worker-bundle.js';
export { formatRatio, median, seconds, secondsAsync, sideBySide, type SideBySide } from './timing.js';
export { debianPython, ensureTorch, torchEnvironment } from './torch.js';
export { sampleRss, type RssSampler } from './rss-sampler.js';
export { benchTokens, probeRealSize } from './real-size-probe.js';
export { qwen05bConfig } from './qwen-05b-config.js';
