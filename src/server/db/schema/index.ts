export * from './analytics.js';
export * from './branding.js';
export * from './developer.js';
export * from './jobs.js';
export * from './packages.js';
export * from './platform.js';
export * from './users.js';
export * from './webhooks.js';
