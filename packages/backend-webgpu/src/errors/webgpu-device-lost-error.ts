import { RewardLensError } from '@reward-lens/spec';

/**
 * The GPU device was lost (driver reset, GPU removed, destroyed by someone else). Pending and
 * later calls on the backend reject with this; create a new backend to continue.
 */
export class WebGpuDeviceLostError extends RewardLensError {
  static readonly code = 'WEBGPU_DEVICE_LOST';
  /** `GPUDeviceLostInfo.reason`: `destroyed` or `unknown`. */
  readonly reason: string;

  constructor(reason: string, message: string, options?: { cause?: unknown }) {
    super(WebGpuDeviceLostError.code, `the WebGPU device was lost (${reason})${message ? `: ${message}` : ''}; create a new backend`, options);
    this.name = 'WebGpuDeviceLostError';
    this.reason = reason;
  }

  static override isInstance(value: unknown): value is WebGpuDeviceLostError {
    return RewardLensError.hasCode(value, WebGpuDeviceLostError.code);
  }
}
