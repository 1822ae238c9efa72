// The calibration folder's modules; the package's src/index.ts names what of them is public.
export * from './step-calibration.js';
export * from './calibrate-evidence.js';
