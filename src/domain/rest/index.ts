export * from './rest-optimizer.js';
