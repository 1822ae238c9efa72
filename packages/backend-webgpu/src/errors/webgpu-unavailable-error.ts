import { RewardLensError } from '@reward-lens/spec';

/**
 * No usable WebGPU adapter or device: no WebGPU implementation, no adapter, only a software
 * adapter where a hardware one was required, or a device request that failed. The message
 * says what to install or pass.
 */
export class WebGpuUnavailableError extends RewardLensError {
  static readonly code = 'WEBGPU_UNAVAILABLE';

  constructor(message: string, options?: { cause?: unknown }) {
    super(WebGpuUnavailableError.code, message, options);
    this.name = 'WebGpuUnavailableError';
  }

  static override isInstance(value: unknown): value is WebGpuUnavailableError {
    return RewardLensError.hasCode(value, WebGpuUnavailableError.code);
  }
}
