/**
 * Runs the OpenWeather sandbox on its own: `npx tsx src/adapters/integrations/openweather/sandbox-cli.ts [port]`.
 * Point the service at it with OPENWEATHER_BASE_URL and use the printed key as the integration's apiKey.
 * A Winter Storm Warning and an afternoon of heavy snow sit over Oklahoma City (50-mile radius).
 */
import { OPENWEATHER_SANDBOX_KEY, startOpenWeatherSandbox } from './sandbox.js';

const port = Number(process.argv[2] ?? 0);
const sandbox = await startOpenWeatherSandbox({ port: Number.isInteger(port) ? port : 0 });
const now = Math.floor(Date.now() / 1000);
sandbox.state.zones.push({
  latitude: 35.4676,
  longitude: -97.5164,
  radiusMiles: 50,
  alerts: [{ sender_name: 'NWS Norman (Central and Southern Oklahoma)', event: 'Winter Storm Warning', start: now - 3600, end: now + 24 * 3600, description: '...WINTER STORM WARNING IN EFFECT...', tags: ['Snow/Ice'] }],
  hours: { 2: { weather: [{ id: 602, main: 'Snow', description: 'heavy snow' }], visibility: 800, wind_gust: 48 }, 3: { weather: [{ id: 602, main: 'Snow', description: 'heavy snow' }] } },
});
process.stdout.write(`OpenWeather sandbox on ${sandbox.url}\nOPENWEATHER_BASE_URL=${sandbox.url}\napiKey=${OPENWEATHER_SANDBOX_KEY}\n`);
const stop = (): void => void sandbox.close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
