/** Weather along routes: hazards from forecasts and alerts, the delay they add, a route's stored signal. */
export * from './types.js';
export * from './hazards.js';
export * from './delay.js';
export * from './route-signal.js';
