/** A Float32Array that grows by doubling: 4 bytes per value, no per-value objects. */
export class GrowableFloats {
  private buffer = new Float32Array(1024);
  length = 0;

  push(value: number): void {
    if (this.length === this.buffer.length) {
      const grown = new Float32Array(this.buffer.length * 2);
      grown.set(this.buffer);
      this.buffer = grown;
    }
    this.buffer[this.length++] = value;
  }

  values(): Float32Array {
    return this.buffer.subarray(0, this.length);
  }

  clear(): void {
    this.buffer = new Float32Array(1024);
    this.length = 0;
  }
}
