export * from './fuel-optimizer.js';
