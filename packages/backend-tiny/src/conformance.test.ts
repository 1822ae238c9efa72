import { runBackendConformance } from '@reward-lens/core/testing';
import { createTinyBackend } from './create-tiny-backend.js';

runBackendConformance({ label: 'backend-tiny', createBackend: async (model) => createTinyBackend(model) });
