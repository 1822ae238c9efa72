const core = await import('@reward-lens/core');
const internal = await import('@reward-lens/spec');
await import('@reward-lens/backend-tiny/register');
await import('@reward-lens/backend-webgpu/register');
const tiny = await import('@reward-lens/backend-tiny');
const webgpu = await import('@reward-lens/backend-webgpu');
const registered = (name) => core.registeredBackends().find((registration) => registration.name === name);
console.log(
  JSON.stringify({
    errorClassAcrossEntries: core.ModelLoadError === internal.ModelLoadError,
    tinyRegisteredIsExported: registered('tiny') === tiny.tinyBackendRegistration,
    webgpuRegisteredIsExported: registered('webgpu') === webgpu.webGpuBackendRegistration,
  }),
);
