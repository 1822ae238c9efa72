/**
 * The declarations a kernel starts with. A dispatch binds its buffers by position (binding `i` is
 * the `i`-th buffer `kernel-set` passes), so the numbers follow one rule: the uniform `Params` at
 * binding 0, then the storage buffers at 1, 2, ... in the order listed. `params` is the struct's
 * fields; `storage` is `name: type` entries, with `read_write` before the type of a buffer the
 * kernel writes.
 *
 * @example
 * kernelBindings('rows: u32, width: u32', 'input: f32, output: read_write f32')
 */
export function kernelBindings(params: string, storage: string): string {
  const buffers = storage.split(',').map((entry, index) => {
    const [name, type] = entry.split(':').map((part) => part.trim());
    const writes = type!.startsWith('read_write ');
    const element = writes ? type!.slice('read_write '.length) : type;
    return `@group(0) @binding(${index + 1}) var<storage, ${writes ? 'read_write' : 'read'}> ${name}: array<${element}>;`;
  });
  return [`struct Params { ${params} }`, '@group(0) @binding(0) var<uniform> params: Params;', ...buffers].join('\n');
}

/**
 * The entry point of a kernel on a `gridFor` grid of `threads`-thread workgroups: the workgroup
 * as `group` (its flat index is `workgroupIndex`), the grid as `groups`, the thread as `local`.
 */
export function gridEntryPoint(threads: number): string {
  return `@compute @workgroup_size(${threads}, 1, 1)
fn main(@builtin(workgroup_id) group: vec3u, @builtin(num_workgroups) groups: vec3u, @builtin(local_invocation_id) local: vec3u) {`;
}
