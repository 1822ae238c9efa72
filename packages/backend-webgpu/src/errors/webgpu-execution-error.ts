import { RewardLensError } from '@reward-lens/spec';

/** Why GPU work failed: a readback that did not finish in time, or an error the device reported. */
export type WebGpuFailureKind = 'timeout' | 'validation' | 'out-of-memory';

/** GPU work that failed or did not finish: a timed-out readback, a validation or out-of-memory error. */
export class WebGpuExecutionError extends RewardLensError {
  static readonly code = 'WEBGPU_EXECUTION';
  readonly kind: WebGpuFailureKind;

  constructor(kind: WebGpuFailureKind, message: string, options?: { cause?: unknown }) {
    super(WebGpuExecutionError.code, `WebGPU ${kind} error: ${message}`, options);
    this.name = 'WebGpuExecutionError';
    this.kind = kind;
  }

  static override isInstance(value: unknown): value is WebGpuExecutionError {
    return RewardLensError.hasCode(value, WebGpuExecutionError.code);
  }
}
