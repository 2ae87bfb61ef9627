import { beforeAll, describe, expect, it } from 'vitest';
import { haversineMiles, isInNorthAmerica } from '../../domain/geo/index.js';
import { loadGazetteer, offlineGeocoder } from './index.js';

const geocoder = offlineGeocoder();

beforeAll(() => {
  loadGazetteer(); // ~0.5 s once per test file; the per-test timings below then measure lookups only
});

/** [input, expected name, latitude, longitude, precision, country]: reference points from public maps. */
const FOUND: Array<[string, string, number, number, 'zip' | 'city', 'US' | 'CA' | 'MX']> = [
  ['75201', 'Dallas, TX', 32.7876, -96.7994, 'zip', 'US'],
  ['Dallas, TX', 'Dallas, TX', 32.7767, -96.797, 'city', 'US'],
  ['dallas tx', 'Dallas, TX', 32.7767, -96.797, 'city', 'US'],
  ['  DALLAS ,   Texas. ', 'Dallas, TX', 32.7767, -96.797, 'city', 'US'],
  ['Dallas, TX 75201', 'Dallas, TX', 32.7876, -96.7994, 'zip', 'US'],
  ['100 Commerce St, Dallas, TX 75201', 'Dallas, TX', 32.7876, -96.7994, 'zip', 'US'],
  ['100 Commerce St, Dallas, TX', 'Dallas, TX', 32.7767, -96.797, 'city', 'US'],
  ['100 Commerce St Dallas TX', 'Dallas, TX', 32.7767, -96.797, 'city', 'US'],
  ['Laredo, TX 78040-1234', 'Laredo, TX', 27.5306, -99.4803, 'zip', 'US'],
  ['1600 Pennsylvania Ave NW, Washington, DC 20500', 'Washington, DC', 38.8977, -77.0365, 'zip', 'US'],
  ['Washington, DC', 'Washington, DC', 38.9072, -77.0369, 'city', 'US'],
  ['St. Louis, MO', 'St. Louis, MO', 38.627, -90.1994, 'city', 'US'],
  ['Saint Louis, Mo.', 'St. Louis, MO', 38.627, -90.1994, 'city', 'US'],
  ['st louis missouri', 'St. Louis, MO', 38.627, -90.1994, 'city', 'US'],
  ['Ft. Worth, Texas', 'Fort Worth, TX', 32.7555, -97.3308, 'city', 'US'],
  ['Port St. Lucie, FL', 'Port Saint Lucie, FL', 27.273, -80.3582, 'city', 'US'],
  ['Kansas City, MO', 'Kansas City, MO', 39.0997, -94.5786, 'city', 'US'],
  ['Kansas City, KS', 'Kansas City, KS', 39.1142, -94.6275, 'city', 'US'],
  ['New York, NY', 'New York, NY', 40.7128, -74.006, 'city', 'US'],
  ['Los Angeles, California', 'Los Angeles, CA', 34.0522, -118.2437, 'city', 'US'],
  ['Winston-Salem, NC', 'Winston-Salem, NC', 36.0999, -80.2442, 'city', 'US'],
  ["Coeur d'Alene, ID", "Coeur d'Alene, ID", 47.6777, -116.7805, 'city', 'US'],
  ['Paris, TX', 'Paris, TX', 33.6609, -95.5555, 'city', 'US'],
  ['Amarillo, TX', 'Amarillo, TX', 35.222, -101.8313, 'city', 'US'],
  ['Gallup, N.M.', 'Gallup, NM', 35.5281, -108.7426, 'city', 'US'],
  ['Effingham, IL', 'Effingham, IL', 39.1200, -88.5434, 'city', 'US'],
  ['Anchorage, AK', 'Anchorage, AK', 61.2181, -149.9003, 'city', 'US'],
  ['Honolulu, HI 96813', 'Honolulu, HI', 21.3069, -157.8583, 'zip', 'US'],
  ['San Juan, PR', 'San Juan, PR', 18.4655, -66.1057, 'city', 'US'],
  ['00901', 'San Juan, PR', 18.4655, -66.1057, 'zip', 'US'],
  ['Chicago', 'Chicago, IL', 41.8781, -87.6298, 'city', 'US'],
  ['Toronto, ON', 'Toronto, ON', 43.6532, -79.3832, 'city', 'CA'],
  ['Toronto, Ontario, Canada', 'Toronto, ON', 43.6532, -79.3832, 'city', 'CA'],
  ['Toronto, ON M5V 3L9', 'Toronto, ON', 43.6532, -79.3832, 'city', 'CA'],
  ['Toronto, Canada', 'Toronto, ON', 43.6532, -79.3832, 'city', 'CA'],
  ['Montreal, Quebec', 'Montréal, QC', 45.5017, -73.5673, 'city', 'CA'],
  ['Vancouver, BC', 'Vancouver, BC', 49.2827, -123.1207, 'city', 'CA'],
  ['Calgary, AB', 'Calgary, AB', 51.0447, -114.0719, 'city', 'CA'],
  ['Winnipeg, MB', 'Winnipeg, MB', 49.8951, -97.1384, 'city', 'CA'],
  ['Halifax, NS', 'Halifax, NS', 44.6488, -63.5752, 'city', 'CA'],
  ["St. John's, NL", "St. John's, NL", 47.5615, -52.7126, 'city', 'CA'],
  ['Saint John, NB', 'Saint John, NB', 45.2733, -66.0633, 'city', 'CA'],
  ['Regina, SK', 'Regina, SK', 50.4452, -104.6189, 'city', 'CA'],
  ['Whitehorse, YT', 'Whitehorse, YT', 60.7212, -135.0568, 'city', 'CA'],
  ['Monterrey, NL', 'Monterrey, NL', 25.6866, -100.3161, 'city', 'MX'],
  ['Monterrey, N.L., México', 'Monterrey, NL', 25.6866, -100.3161, 'city', 'MX'],
  ['Monterrey, Nuevo León', 'Monterrey, NL', 25.6866, -100.3161, 'city', 'MX'],
  ['Nuevo Laredo, Tamps.', 'Nuevo Laredo, TAMPS', 27.4779, -99.5496, 'city', 'MX'],
  ['Ciudad Juarez, CHIH', 'Juárez, CHIH', 31.6904, -106.4245, 'city', 'MX'],
  ['Saltillo, Coahuila', 'Saltillo, COAH', 25.4267, -100.9954, 'city', 'MX'],
  ['Tijuana, BC', 'Tijuana, BC', 32.5149, -117.0382, 'city', 'MX'],
  ['Guadalajara, JAL', 'Guadalajara, JAL', 20.6597, -103.3496, 'city', 'MX'],
  ['Hermosillo, Sonora', 'Hermosillo, SON', 29.0729, -110.9559, 'city', 'MX'],
  ['Mérida, YUC', 'Mérida, YUC', 20.9674, -89.5926, 'city', 'MX'],
  ['Mexico City, Mexico', 'Mexico City, CDMX', 19.4326, -99.1332, 'city', 'MX'],
];

describe('geocode: known places', () => {
  it.each(FOUND)('%s → %s', (input, name, latitude, longitude, precision, country) => {
    const hit = geocoder.geocode(input);
    expect(hit).toMatchObject({ name, precision, country });
    // ZIP centroids here are rounded to 0.01° for some areas (Puerto Rico): a few miles either way.
    expect(haversineMiles(hit!, { latitude, longitude })).toBeLessThan(precision === 'zip' ? 6 : 8);
    expect(isInNorthAmerica(hit!)).toBe(true);
  });

  it('returns the ZIP used and the region code', () => {
    expect(geocoder.geocode('Dallas, TX 75201')).toMatchObject({ postalCode: '75201', region: 'TX' });
    expect(geocoder.geocode('Dallas, TX')?.postalCode).toBeUndefined();
    expect(geocoder.geocode('Dallas, TX 75201')?.matched).toBe('Dallas, TX 75201');
    expect(geocoder.geocode('dallas texas')?.matched).toBe('Dallas, TX');
  });

  it('prefers the city when the ZIP belongs to another state, and the ZIP when it agrees', () => {
    expect(geocoder.geocode('Dallas, TX 10001')).toMatchObject({ name: 'Dallas, TX', precision: 'city' });
    expect(geocoder.geocode('Dallas, TX 77002')).toMatchObject({ name: 'Houston, TX', precision: 'zip' }); // the ZIP is more precise
    expect(geocoder.geocode('Dallas, ZZ 75201')).toMatchObject({ name: 'Dallas, TX', precision: 'zip' }); // unknown "state": ZIP alone
  });

  it('resolves two-letter codes shared by countries by where the city is', () => {
    expect(geocoder.geocode('Denver, CO')).toMatchObject({ country: 'US', region: 'CO' });
    expect(geocoder.geocode('Saltillo, CO')).toMatchObject({ country: 'MX', region: 'COAH' });
    expect(geocoder.geocode('Corner Brook, NL')).toMatchObject({ country: 'CA', region: 'NL' });
    expect(geocoder.geocode('Kelowna, BC')).toMatchObject({ country: 'CA' });
    expect(geocoder.geocode('Mexicali, BC')).toMatchObject({ country: 'MX' });
  });

  it('finds small towns through the USPS city names', () => {
    // Below GeoNames' 1,000-person floor, but a ZIP town: found as the mean of its ZIP centroids. A rural
    // ZIP covers a large area, so its centroid can sit miles from the town itself.
    const hit = geocoder.geocode('Lost Springs, WY');
    expect(hit).toMatchObject({ name: 'Lost Springs, WY', precision: 'city', country: 'US' });
    expect(haversineMiles(hit!, { latitude: 42.7647, longitude: -104.9255 })).toBeLessThan(25);
  });

  it('resolves a bare name only when exactly one place bears it, whatever the populations', () => {
    expect(geocoder.geocode('Chicago')).toMatchObject({ name: 'Chicago, IL' });
    expect(geocoder.geocode('Portland')).toBeNull(); // Oregon's is 9× Maine's: still two places
    expect(geocoder.geocode('Dallas')).toBeNull();
    expect(geocoder.geocode('Kansas City')).toBeNull();
  });
});

describe('geocode: unknown, ambiguous, foreign and garbage input', () => {
  it.each([
    [''],
    ['   '],
    [',,,'],
    ['asdfghjkl'],
    ['Nowhereville, TX'],
    ['Dallas, XY'],
    ['99999'],
    ['00000'],
    ['1234'],
    ['123456'],
    ['Springfield'], // ambiguous without a state
    ['Columbus'],
    ['Vancouver'], // the big one is in Canada: say which
    ['London'],
    ['London, UK'],
    ['Paris, France'],
    ['Berlin, Germany'],
    ['Tokyo'],
    ['SW1A 1AA'],
    ['Texas'],
    ['12345 Main Street'],
    ['<script>alert(1)</script>'],
    ["'; DROP TABLE stops; --"],
    ['Dallas'.repeat(100)],
  ])('%j → null', (input) => {
    expect(geocoder.geocode(input)).toBeNull();
  });

  it('never throws on odd strings', () => {
    for (const input of ['\u0000', '🚚, TX', 'Ñandú, ÑÑ', '75201-', '-75201', 'TX 75201', ', TX', 'Dallas,', '..., ...']) {
      expect(() => geocoder.geocode(input)).not.toThrow();
    }
    expect(geocoder.geocode('TX 75201')).toMatchObject({ precision: 'zip', name: 'Dallas, TX' });
    expect(geocoder.geocode(undefined as unknown as string)).toBeNull();
  });
});

describe('nearestPlace', () => {
  it('names a rest stop after the nearest town of some size', () => {
    const onI40 = { latitude: 35.19, longitude: -101.5 }; // ~20 mi east of Amarillo
    expect(geocoder.nearestPlace(onI40)).toMatchObject({ name: 'Amarillo, TX', country: 'US' });
    const hit = geocoder.nearestPlace(onI40)!;
    expect(hit.distanceMiles).toBeCloseTo(haversineMiles(onI40, hit), 6);
    expect(hit.population).toBeGreaterThanOrEqual(5000);
  });

  it('skips towns under the population threshold', () => {
    const shamrock = { latitude: 35.2142, longitude: -100.249 }; // Shamrock, TX on I-40: ~2,000 people
    expect(geocoder.nearestPlace(shamrock, { minPopulation: 1000 })).toMatchObject({
      name: 'Shamrock, TX',
      distanceMiles: expect.closeTo(0, 1),
    });
    const sized = geocoder.nearestPlace(shamrock)!;
    expect(sized.name).not.toBe('Shamrock, TX');
    expect(sized.population).toBeGreaterThanOrEqual(5000);
    expect(geocoder.nearestPlace(shamrock, { minPopulation: 100_000 })?.name).toBe('Amarillo, TX');
  });

  it('works in Canada and Mexico and gives up far from any town', () => {
    expect(geocoder.nearestPlace({ latitude: 43.66, longitude: -79.4 })?.name).toBe('Toronto, ON');
    expect(geocoder.nearestPlace({ latitude: 25.68, longitude: -100.31 })?.name).toBe('Monterrey, NL');
    expect(geocoder.nearestPlace({ latitude: 35, longitude: -40 })).toBeNull(); // mid-Atlantic
    expect(geocoder.nearestPlace({ latitude: 66, longitude: -140 })).toBeNull(); // Yukon wilderness, > 100 mi
    expect(geocoder.nearestPlace({ latitude: 66, longitude: -140 }, { maxDistanceMiles: 400, minPopulation: 1000 })).not.toBeNull();
  });

});

describe('loadGazetteer', () => {
  it('loads the datasets once and reports what it cost', () => {
    const gazetteer = loadGazetteer();
    expect(loadGazetteer()).toBe(gazetteer);
    expect(gazetteer.stats.zipCodes).toBeGreaterThan(40_000);
    expect(gazetteer.stats.places).toBeGreaterThan(25_000);
    expect(gazetteer.stats.loadMs).toBeGreaterThan(0);
  });

  it('finds a ZIP only by its exact five digits (first, last and leading-zero ZIPs included)', () => {
    const gazetteer = loadGazetteer();
    expect(gazetteer.zip('00501')).toEqual({ zip: '00501', latitude: 40.8154, longitude: -73.0451, name: 'Holtsville, NY', region: 'NY' });
    expect(gazetteer.zip('02134')).toEqual({ zip: '02134', latitude: 42.3535, longitude: -71.1329, name: 'Allston, MA', region: 'MA' });
    expect(gazetteer.zip('99950')).toEqual({ zip: '99950', latitude: 55.3422, longitude: -131.6478, name: 'Ketchikan, AK', region: 'AK' });
    for (const notAZip of ['9021', '902100', ' 90210', '9021O', '00000', '99999', '']) expect(gazetteer.zip(notAZip)).toBeUndefined();
  });
});
