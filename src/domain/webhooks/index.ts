/** Webhooks' pure core: the event catalogue and envelope, target address policy, retry policy, signatures. */
export * from './events.js';
export * from './address-policy.js';
export * from './retry-policy.js';
export * from './signature.js';
