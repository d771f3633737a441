export * from './platform.js';
export * from './users.js';
