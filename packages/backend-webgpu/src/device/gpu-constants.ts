// The spec's flag values, so that nothing depends on the GPUBufferUsage / GPUMapMode globals
// (Dawn for Node does not install them unless asked).
export const BufferUsage = {
  MAP_READ: 0x0001,
  COPY_SRC: 0x0004,
  COPY_DST: 0x0008,
  UNIFORM: 0x0040,
  STORAGE: 0x0080,
} as const;

export const MapMode = { READ: 0x0001 } as const;

/** Workgroups per grid dimension that every adapter supports. */
export const MAX_WORKGROUPS_PER_DIMENSION = 65535;
