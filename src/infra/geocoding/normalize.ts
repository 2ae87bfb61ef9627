/**
 * Text normalization shared by the dataset indexes and the query parser, so "St. Louis", "SAINT LOUIS"
 * and "Saint-Louis" meet on one key.
 */

/** Lower case, no accents, no apostrophes; every other non-alphanumeric except the comma becomes one space. */
export function normalizeText(text: string): string {
  // Decomposing accents is the slow step; most names are plain ASCII.
  const ascii = /^[\x20-\x7e]*$/.test(text) ? text : text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
  return ascii
    .toLowerCase()
    .replace(/['\u2019`]/g, '')
    .replace(/[^a-z0-9,]+/g, ' ')
    .replace(/\s*,\s*/g, ',')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Abbreviations spelled out in place names (GeoNames mostly spells them out; the USPS mostly does too). */
const WORD_FORMS: Readonly<Record<string, string>> = {
  st: 'saint',
  ste: 'sainte',
  ft: 'fort',
  mt: 'mount',
  pt: 'point',
  cd: 'ciudad',
};

/** The lookup key of a place name: normalized, abbreviations expanded. */
export function placeKey(name: string): string {
  return normalizeText(name)
    .replace(/,/g, ' ')
    .split(' ')
    .filter((w) => w.length > 0)
    .map((w) => WORD_FORMS[w] ?? w)
    .join(' ');
}
