// The API contract shared by the API and the console.
export * from './common.js';
export * from './auth.js';
export * from './accounts.js';
export * from './activity.js';
export * from './base.js';
export * from './analyses.js';
export * from './geometry.js';
export * from './operational-areas.js';
export * from './farms.js';
export * from './farmers.js';
export * from './agents.js';
export * from './tenant-settings.js';
export * from './exports.js';
export * from './console-config.js';
export * from './analytics.js';
export * from './tenants.js';
export * from './licenses.js';
