/**
 * Runs the National Weather Service sandbox on its own: `npx tsx src/adapters/integrations/nws/sandbox-cli.ts [port]`.
 * Point the service at it with NWS_BASE_URL (the nws integration needs no key). A Winter Storm Warning
 * and heavy snow sit over Oklahoma City (50-mile radius), a Wind Advisory over Dallas.
 */
import { startNwsSandbox } from './sandbox.js';

const port = Number(process.argv[2] ?? 0);
const sandbox = await startNwsSandbox({ port: Number.isInteger(port) ? port : 0 });
const at = (hours: number): string => new Date(Date.now() + hours * 3_600_000).toISOString();
sandbox.state.zones.push(
  {
    latitude: 35.4676,
    longitude: -97.5164,
    radiusMiles: 50,
    alerts: [{ event: 'Winter Storm Warning', severity: 'Severe', onset: at(-1), ends: at(24), headline: 'Winter Storm Warning issued by NWS Norman OK' }],
    periods: { 2: { shortForecast: 'Heavy Snow', windSpeed: '20 to 30 mph', windGust: '50 mph' }, 3: { shortForecast: 'Heavy Snow' } },
  },
  { latitude: 32.7767, longitude: -96.797, radiusMiles: 30, alerts: [{ event: 'Wind Advisory', severity: 'Minor', onset: at(0), ends: at(8), headline: 'Wind Advisory issued by NWS Fort Worth TX' }] },
);
process.stdout.write(`NWS sandbox on ${sandbox.url}\nNWS_BASE_URL=${sandbox.url}\n`);
const stop = (): void => void sandbox.close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
