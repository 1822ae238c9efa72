import { describe, expect, it } from 'vitest';
import { valueType } from './code-emitter.js';
import { emitExp, expTemporaries } from './exp-simd.js';
import { WasmModuleBuilder } from './wasm-module-builder.js';

/** `exp(address, count)`: replaces `count` floats (a multiple of 4) with their exponentials. */
function createExp(): (values: Float32Array) => Float32Array {
  const builder = new WasmModuleBuilder().importMemory('env', 'memory', 1);
  builder.addFunction('exp', [valueType.i32, valueType.i32], [], (code) => {
    const temporaries = expTemporaries(code);
    const k = code.addLocal(valueType.i32);
    code.while(
      () => code.localGet(k).localGet(1).i32Const(2).i32Shl().i32LtU(),
      () => {
        code.localGet(0).localGet(k).i32Add().localGet(0).localGet(k).i32Add().v128Load();
        emitExp(code, temporaries);
        code.v128Store().addTo(k, 16);
      },
    );
  });
  const memory = new WebAssembly.Memory({ initial: 2 });
  const { exp } = new WebAssembly.Instance(new WebAssembly.Module(builder.toBytes()), { env: { memory } }).exports as {
    exp: (address: number, count: number) => void;
  };
  return (values) => {
    const floats = new Float32Array(memory.buffer);
    floats.set(values, 4);
    exp(16, values.length);
    return floats.slice(4, 4 + values.length);
  };
}

describe('emitExp (f32x4)', () => {
  const exp = createExp();

  it('is within 2e-7 relative of e^x over the whole clamped range', () => {
    const inputs = Float32Array.from({ length: 20_000 }, (_, index) => -87 + (175 * index) / 19_999);
    const results = exp(inputs);
    let worst = 0;
    inputs.forEach((x, index) => {
      worst = Math.max(worst, Math.abs(results[index]! / Math.exp(x) - 1));
    });
    expect(worst).toBeLessThan(2e-7);
  });

  it('gives exactly 1 at 0, and clamps instead of overflowing or going subnormal', () => {
    const [zero, veryNegative, minusInfinity, veryPositive] = exp(Float32Array.of(0, -1000, -Infinity, 1000));
    expect(zero).toBe(1);
    expect(veryNegative).toBeGreaterThan(0);
    expect(veryNegative).toBeLessThan(1.2e-38);
    expect(minusInfinity).toBe(veryNegative);
    expect(veryPositive! / Math.exp(88)).toBeCloseTo(1, 6);
  });
});
