import { isDecoderFolderSource, isDecoderSource, isOnnxSource, unsupportedSourceReason, type BackendRegistration } from '@reward-lens/spec';
import type { OnnxBackendOptions } from './create-ort-backend.js';
import { createOrtBackendFromSource, ortBackendDtypes, ortSourceKinds, type OrtSourceFactory } from './create-from-source.js';

/** What an ONNX runtime package says about its registration: the factory, its priority, and which of its options `threads` sets. */
export interface OrtRegistrationSpec<Options extends OnnxBackendOptions> extends OrtSourceFactory<Options> {
  priority: number;
  /** The option the resolver's `threads` fills when the settings do not give it (`intraOpThreads`, `numThreads`). */
  threadsOption: keyof Options & string;
}

/**
 * The registration both ONNX backends make: it runs ONNX graphs (from disk or `source.bytes`) and
 * decoder weights (exported in memory first, by the runtime package's own `exporter`), at the
 * dtypes `ortBackendDtypes` lists. Settings come from `settings[name]`, `threads` filling
 * `threadsOption` unless they give it.
 */
export function ortBackendRegistration<Options extends OnnxBackendOptions>(spec: OrtRegistrationSpec<Options>): BackendRegistration {
  const { name, priority, threadsOption } = spec;
  const sourceKinds = ortSourceKinds(spec);
  return {
    name,
    priority,
    sourceKinds,
    dtypes: ortBackendDtypes,
    unavailableReason(source) {
      const runs = isOnnxSource(source) || isDecoderSource(source) || (isDecoderFolderSource(source) && sourceKinds.includes('decoder-folder'));
      return runs ? null : unsupportedSourceReason(name, source, sourceKinds);
    },
    async create(source, options) {
      const own = (options.settings?.[name] ?? {}) as Options;
      const settings = options.threads !== undefined && own[threadsOption] === undefined ? { ...own, [threadsOption]: options.threads } : own;
      return createOrtBackendFromSource(spec, source, options, settings);
    },
  };
}
