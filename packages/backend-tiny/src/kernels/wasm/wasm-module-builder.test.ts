import { describe, expect, it } from 'vitest';
import { valueType } from './code-emitter.js';
import { WasmModuleBuilder } from './wasm-module-builder.js';

const { i32, f32 } = valueType;

function instantiate(builder: WasmModuleBuilder, imports?: WebAssembly.Imports): Record<string, unknown> {
  const bytes = builder.toBytes();
  expect(WebAssembly.validate(bytes)).toBe(true);
  return new WebAssembly.Instance(new WebAssembly.Module(bytes), imports).exports;
}

describe('WasmModuleBuilder', () => {
  it('emits the smallest module byte for byte: an exported i32 add', () => {
    const builder = new WasmModuleBuilder();
    builder.addFunction('add', [i32, i32], [i32], (code) => code.localGet(0).localGet(1).i32Add());
    // (module (func (export "add") (param i32 i32) (result i32) local.get 0 local.get 1 i32.add)),
    // section by section: header, type, function, export, code.
    expect([...builder.toBytes()]).toEqual([
      0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, 0x01, 0x07, 0x01, 0x60, 0x02, 0x7f, 0x7f, 0x01, 0x7f, 0x03, 0x02, 0x01, 0x00, 0x07, 0x07, 0x01, 0x03,
      0x61, 0x64, 0x64, 0x00, 0x00, 0x0a, 0x09, 0x01, 0x07, 0x00, 0x20, 0x00, 0x20, 0x01, 0x6a, 0x0b,
    ]);
    const { add } = instantiate(builder) as { add: (a: number, b: number) => number };
    expect(add(2, 3)).toBe(5);
    expect(add(2 ** 31 - 1, 1)).toBe(-(2 ** 31));
  });

  it('shares a type between functions of one signature and lets a body call an earlier function', () => {
    const builder = new WasmModuleBuilder();
    const square = builder.addFunction(undefined, [i32], [i32], (code) => code.localGet(0).localGet(0).i32Mul());
    builder.addFunction('sumOfSquares', [i32, i32], [i32], (code) => code.localGet(0).call(square).localGet(1).call(square).i32Add());
    builder.addFunction('twice', [i32], [i32], (code) => code.localGet(0).call(square).call(square));
    const { sumOfSquares, twice } = instantiate(builder) as Record<string, (...values: number[]) => number>;
    expect(sumOfSquares!(3, 4)).toBe(25);
    expect(twice!(3)).toBe(81);
  });

  it('loops over an imported memory with locals of several types', () => {
    const builder = new WasmModuleBuilder().importMemory('env', 'memory', 1);
    // sum(address, count): the float32 sum of `count` floats.
    builder.addFunction('sum', [i32, i32], [f32], (code) => {
      const [address, count] = [0, 1];
      const index = code.addLocal(i32);
      const total = code.addLocal(f32);
      code.while(
        () => code.localGet(index).localGet(count).i32LtU(),
        () => {
          code.localGet(total).localGet(address).localGet(index).i32Const(2).i32Shl().i32Add().f32Load().f32Add().localSet(total);
          code.addTo(index, 1);
        },
      );
      code.localGet(total);
    });
    const memory = new WebAssembly.Memory({ initial: 1 });
    new Float32Array(memory.buffer).set([1.5, 2, -0.25, 8], 4);
    const { sum } = instantiate(builder, { env: { memory } }) as { sum: (address: number, count: number) => number };
    expect(sum(16, 4)).toBe(11.25);
    expect(sum(16, 0)).toBe(0);
  });

  it('emits SIMD: a lane-wise multiply-add with a shuffle and a constant', () => {
    const builder = new WasmModuleBuilder().importMemory('env', 'memory', 1);
    // out = reverse(a) · b + 0.5, four lanes at once.
    builder.addFunction('run', [i32, i32, i32], [], (code) => {
      code.localGet(2);
      code.localGet(0).v128Load().localGet(0).v128Load().f32x4Shuffle([3, 2, 1, 0]);
      code.localGet(1).v128Load().f32x4Mul().f32x4Const(0.5).f32x4Add().v128Store();
    });
    const memory = new WebAssembly.Memory({ initial: 1 });
    const floats = new Float32Array(memory.buffer);
    floats.set([1, 2, 3, 4, 10, 20, 30, 40]);
    const { run } = instantiate(builder, { env: { memory } }) as { run: (a: number, b: number, out: number) => void };
    run(0, 16, 32);
    expect([...floats.subarray(8, 12)]).toEqual([40.5, 60.5, 60.5, 40.5]);
  });
});
