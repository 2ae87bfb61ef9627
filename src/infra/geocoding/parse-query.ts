/**
 * Reads what a dispatcher types for a stop — "75201", "Dallas, TX", "St. Louis, Mo.", "Dallas Texas",
 * "100 Commerce St, Dallas, TX 75201-1234", "Toronto, ON M5V 3L9", "Monterrey, N.L., Mexico" — into the
 * pieces the gazetteer can look up. Pure; knows nothing of the datasets.
 */
import { normalizeText, placeKey } from './normalize.js';
import { COUNTRY_WORDS, type Country, REGION_LOOKUP, type Region } from './regions.js';

export interface ParsedQuery {
  /** A five-digit US ZIP code found at the end of the text. */
  zip: string | null;
  /** City lookup keys (placeKey form) to try in order, most specific first. */
  cities: string[];
  /** The regions the state/province token may mean, in the order to try; empty when none was given. */
  regions: readonly Region[];
  /** A country named explicitly, or the country the region token may also mean ("Mexico"). */
  country: Country | null;
}

/** Longer inputs are not addresses; refusing them keeps the parser's cost bounded. */
export const MAX_QUERY_LENGTH = 300;
/** A region name has at most this many words ("united states of america" is handled as a country). */
const MAX_REGION_WORDS = 4;
/** No North American place name we need is longer than this many words. */
const MAX_CITY_WORDS = 6;

export function parseQuery(text: string): ParsedQuery | null {
  if (typeof text !== 'string' || text.length > MAX_QUERY_LENGTH) return null;
  const parts = normalizeText(text)
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
  if (parts.length === 0) return null;

  let country: Country | null = null;
  // "…, Canada" / "…, ON, CA": a country as the last part. Two-part "X, CA" is California, not Canada.
  const lastPart = parts[parts.length - 1]!;
  const countryPart = COUNTRY_WORDS.get(lastPart);
  if (countryPart !== undefined && parts.length > 1 && (!REGION_LOOKUP.has(lastPart) || parts.length >= 3)) {
    country = countryPart;
    parts.pop();
  }

  const tail = stripPostalCodes(parts.pop()!.split(' '));
  if (tail.country !== null) country = tail.country;
  if (tail.tokens.length > 0) parts.push(tail.tokens.join(' '));
  if (parts.length === 0) return tail.zip === null ? null : { zip: tail.zip, cities: [], regions: [], country: 'US' };

  const last = parts[parts.length - 1]!.split(' ');
  const region = matchTrailingRegion(last);
  if (region === null) {
    return { zip: tail.zip, cities: cityKeys(last, parts.length === 1), regions: [], country };
  }
  if (region.before.length > 0) {
    // "Dallas TX", "100 Commerce St Dallas TX": the city shares the region's part.
    return { zip: tail.zip, cities: cityKeys(region.before, true), regions: region.regions, country: country ?? region.country };
  }
  if (parts.length >= 2) {
    const cityPart = parts[parts.length - 2]!.split(' ');
    const looseCity = cityPart.length > 3 || cityPart.some((w) => /\d/.test(w));
    return { zip: tail.zip, cities: cityKeys(cityPart, looseCity), regions: region.regions, country: country ?? region.country };
  }
  // The whole text is a region name ("Washington", "New York"): read it as a city with no region.
  return { zip: tail.zip, cities: cityKeys(last, false), regions: [], country };
}

interface Tail {
  tokens: string[];
  zip: string | null;
  country: Country | null;
}

/** Removes a trailing "USA", a ZIP or ZIP+4, or a Canadian postal code from the last part. */
function stripPostalCodes(input: string[]): Tail {
  const tokens = [...input];
  let country: Country | null = null;
  for (const words of [['united', 'states', 'of', 'america'], ['united', 'states'], ['usa'], ['canada']]) {
    if (tokens.length > words.length && words.every((w, i) => tokens[tokens.length - words.length + i] === w)) {
      tokens.splice(tokens.length - words.length);
      country = words[0] === 'canada' ? 'CA' : 'US';
      break;
    }
  }
  let zip: string | null = null;
  const lastToken = tokens[tokens.length - 1] ?? '';
  const previous = tokens[tokens.length - 2] ?? '';
  if (/^\d{4}$/.test(lastToken) && /^\d{5}$/.test(previous)) {
    zip = previous; // ZIP+4, its hyphen already a space
    tokens.splice(-2);
  } else if (/^\d{5}$/.test(lastToken) || /^\d{9}$/.test(lastToken)) {
    zip = lastToken.slice(0, 5);
    tokens.splice(-1);
  } else if (/^[a-z]\d[a-z]\d[a-z]\d$/.test(lastToken)) {
    tokens.splice(-1);
    country = 'CA';
  } else if (/^\d[a-z]\d$/.test(lastToken) && /^[a-z]\d[a-z]$/.test(previous)) {
    tokens.splice(-2);
    country = 'CA';
  }
  return { tokens, zip, country };
}

interface RegionMatch {
  regions: readonly Region[];
  before: string[];
  country: Country | null;
}

/** The longest run of trailing words that names a state, province or Mexican state ("n l" reads as "nl"). */
function matchTrailingRegion(words: string[]): RegionMatch | null {
  for (let k = Math.min(MAX_REGION_WORDS, words.length); k >= 1; k--) {
    const tailWords = words.slice(-k);
    const phrase = tailWords.join(' ');
    const compact = tailWords.every((w) => w.length === 1) ? tailWords.join('') : null;
    const regions = REGION_LOOKUP.get(phrase) ?? (compact === null ? undefined : REGION_LOOKUP.get(compact));
    if (regions !== undefined) {
      return { regions, before: words.slice(0, -k), country: COUNTRY_WORDS.get(phrase) ?? null };
    }
  }
  return null;
}

/**
 * Keys to try for the city: the whole text, then (when the text may hold a street address before the
 * city) each shorter run of its last words, never starting with a house number.
 */
function cityKeys(words: string[], allowSuffixes: boolean): string[] {
  const keys = [placeKey(words.join(' '))];
  if (allowSuffixes) {
    for (let k = Math.min(MAX_CITY_WORDS, words.length); k >= 1; k--) {
      const suffix = words.slice(-k);
      if (/^\d/.test(suffix[0]!)) continue;
      keys.push(placeKey(suffix.join(' ')));
    }
  }
  return [...new Set(keys)].filter((k) => k.length > 0);
}
