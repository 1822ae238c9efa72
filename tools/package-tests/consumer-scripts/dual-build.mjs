import { createRequire } from 'node:module';
import { ProcessRM, registeredBackends } from '@reward-lens/core';
createRequire(import.meta.url)('@reward-lens/backend-tiny/register');
const registered = registeredBackends().map((entry) => entry.name);
const prm = await ProcessRM.fromTiny({ seed: 0 });
console.log(JSON.stringify({ registered, backend: prm.backend.name }));
