// The API contract shared by the API and the console.
export * from './common.js';
export * from './auth.js';
export * from './accounts.js';
export * from './activity.js';
export * from './base.js';
