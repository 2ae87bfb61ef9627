import { describe, expect, it } from 'vitest';
import { isInNorthAmerica, landMassOf } from './index.js';

const IN: Array<[string, number, number]> = [
  ['Dallas', 32.7767, -96.797],
  ['Seattle', 47.6062, -122.3321],
  ['Miami', 25.7617, -80.1918],
  ['Key West', 24.5551, -81.78],
  ['Dry Tortugas', 24.63, -82.87],
  ['Bangor', 44.8012, -68.7778],
  ['Montauk', 41.07, -71.86],
  ['Cape Hatteras', 35.25, -75.53],
  ['San Diego', 32.7157, -117.1611],
  ['Avalon, Catalina Island', 33.34, -118.33],
  ['Cape Mendocino', 40.44, -124.41],
  ['Anchorage', 61.2181, -149.9003],
  ['Utqiagvik', 71.29, -156.79],
  ['Kodiak', 57.79, -152.41],
  ['Dutch Harbor', 53.89, -166.53],
  ['Adak', 51.88, -176.65],
  ['Attu (west of the antimeridian)', 52.9, 173.2],
  ['Nome', 64.5, -165.41],
  ['Honolulu', 21.3069, -157.8583],
  ['Hilo', 19.7241, -155.0868],
  ['San Juan PR', 18.4655, -66.1057],
  ['St. Thomas USVI', 18.34, -64.93],
  ['Toronto', 43.6532, -79.3832],
  ['Vancouver', 49.2827, -123.1207],
  ['Halifax', 44.6488, -63.5752],
  ["St. John's NL", 47.5615, -52.7126],
  ['Whitehorse', 60.7212, -135.0568],
  ['Inuvik', 68.36, -133.72],
  ['Iqaluit', 63.7467, -68.517],
  ['Alert NU', 82.5, -62.35],
  ['Churchill MB (Hudson Bay)', 58.77, -94.17],
  ['Mexico City', 19.4326, -99.1332],
  ['Monterrey', 25.6866, -100.3161],
  ['Cancún', 21.1619, -86.8515],
  ['Chetumal', 18.5, -88.3],
  ['Tapachula', 14.9, -92.26],
  ['Cabo San Lucas', 22.89, -109.91],
  ['Tijuana', 32.5149, -117.0382],
  ['Gulf of Mexico (enclosed water)', 26, -90],
];

const OUT: Array<[string, number, number]> = [
  ['London', 51.5074, -0.1278],
  ['Paris', 48.8566, 2.3522],
  ['Madrid', 40.4168, -3.7038],
  ['Reykjavik', 64.1466, -21.9426],
  ['Nuuk, Greenland', 64.1814, -51.6941],
  ['Qaanaaq, Greenland', 77.47, -69.23],
  ['Bermuda', 32.3078, -64.7505],
  ['Mid-Atlantic', 35, -40],
  ['Nassau, Bahamas', 25.0443, -77.3504],
  ['Havana', 23.1136, -82.3666],
  ['Belize City', 17.5046, -88.1962],
  ['Guatemala City', 14.6349, -90.5069],
  ['Mid-Pacific', 30, -140],
  ['Off Baja (Guadalupe Island)', 29.0, -118.3],
  ['Provideniya, Russia', 64.42, -173.23],
  ['Tokyo', 35.6762, 139.6503],
  ['Null Island', 0, 0],
  ['Sydney', -33.8688, 151.2093],
  ['Swapped Dallas (lon, lat)', -96.797, 32.7767],
];

describe('isInNorthAmerica', () => {
  it.each(IN)('%s is in', (_name, latitude, longitude) => {
    expect(isInNorthAmerica({ latitude, longitude })).toBe(true);
  });

  it.each(OUT)('%s is out', (_name, latitude, longitude) => {
    expect(isInNorthAmerica({ latitude, longitude })).toBe(false);
  });

  it('rejects non-finite input', () => {
    expect(isInNorthAmerica({ latitude: Number.NaN, longitude: -96 })).toBe(false);
  });
});

describe('landMassOf', () => {
  it('separates the road networks a truck cannot drive between', () => {
    expect(landMassOf({ latitude: 32.78, longitude: -96.8 })).toBe('MAINLAND');
    expect(landMassOf({ latitude: 61.2, longitude: -149.9 })).toBe('MAINLAND'); // Alaska Highway
    expect(landMassOf({ latitude: 21.3, longitude: -157.86 })).toBe('HAWAII');
    expect(landMassOf({ latitude: 18.47, longitude: -66.1 })).toBe('CARIBBEAN');
    expect(landMassOf({ latitude: 51.5, longitude: -0.13 })).toBeNull();
  });
});
