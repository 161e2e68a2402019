import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';
import { COUNTRY_ZONES } from './country-zones.js';
import { ZONE_IDS } from './zone-ids.js';

/**
 * A recipient's zone for quiet hours (docs/delivery.md, Quiet hours), computed once at ingest
 * and stored as a small id (zone-ids.ts) so the dispatcher parses nothing per message.
 *
 * Herald keeps numbers as they were written, digits only (docs/product.md, How numbers are
 * read): a number of at most 10 digits after its leading zeros is a national one, as the
 * providers' `domesticCountryCode` reads it (providers/phone-format.ts), and belongs to the
 * default country, India, the product's home. A longer number starts with its country calling
 * code; libphonenumber-js names the country (within a shared code such as +1 or +7, by the
 * number's leading digits), and the country's zone comes from COUNTRY_ZONES. A code whose
 * country libphonenumber-js cannot name for this number falls back to the code's main country,
 * and an unknown code to the default country.
 */

export const DEFAULT_COUNTRY: CountryCode = 'IN';
/** Id 0, the column's default: the default country's zone. */
export const DEFAULT_ZONE_ID = 0;

const SPAN = 1e15;
/** Numbers beyond this (after leading zeros) carry a country code: more than 10 digits. */
const NATIONAL_MAX = 1e10;
/** The country of each number shares its first digits with its neighbours': cached by them. */
const PREFIX_DIGITS = 6;

const idOfZone = new Map(ZONE_IDS.map((z, i) => [z, i]));

function zoneIdOfCountry(country: string | undefined): number {
  const zone = country === undefined ? undefined : COUNTRY_ZONES[country];
  return zone === undefined ? DEFAULT_ZONE_ID : (idOfZone.get(zone) ?? DEFAULT_ZONE_ID);
}

/** The zone of a country (tests and the settings screen's example). */
export function zoneOfCountry(country: string): string {
  return ZONE_IDS[zoneIdOfCountry(country)] as string;
}

/** The zone named by a stored id (an unknown id reads as the default country's). */
export function zoneName(id: number): string {
  return ZONE_IDS[id] ?? (ZONE_IDS[DEFAULT_ZONE_ID] as string);
}

/**
 * Computes the zone ids of numbers. The country of a long number is decided by its first
 * PREFIX_DIGITS significant digits (a calling code is at most 3, a +1 area code 3 more), so
 * a million numbers cost a few thousand parses at most, each once per ingest.
 */
export class ZoneFinder {
  readonly #byPrefix = new Map<number, number>();

  /** The zone id of a recipient key (contract recipient-keys.ts: digit count and value). */
  ofKey(key: number): number {
    const tag = Math.floor(key / SPAN);
    const value = key - tag * SPAN;
    if (value < NATIONAL_MAX) return DEFAULT_ZONE_ID;
    const significant = Math.floor(Math.log10(value)) + 1;
    const prefix = Math.floor(value / 10 ** (significant - PREFIX_DIGITS));
    const cached = this.#byPrefix.get(prefix);
    if (cached !== undefined) return cached;
    const id = zoneIdOfNumber(String(value));
    this.#byPrefix.set(prefix, id);
    return id;
  }
}

/** The zone id of an international number's digits (its country calling code first). */
function zoneIdOfNumber(digits: string): number {
  const parsed = parsePhoneNumberFromString(`+${digits}`);
  if (!parsed) return DEFAULT_ZONE_ID;
  return zoneIdOfCountry(parsed.country ?? MAIN_COUNTRY_OF_CODE[parsed.countryCallingCode]);
}

/** The main country of a calling code several countries share (libphonenumber's own choice). */
const MAIN_COUNTRY_OF_CODE: Readonly<Record<string, CountryCode>> = {
  '1': 'US',
  '7': 'RU',
  '44': 'GB',
  '47': 'NO',
  '61': 'AU',
  '212': 'MA',
  '262': 'RE',
  '290': 'SH',
  '358': 'FI',
  '590': 'GP',
  '599': 'CW',
};

/**
 * The zone ids of sorted recipient keys, with the distinct ids among them (the campaign's
 * `recipient_zones`, which the dispatcher checks at each slice).
 */
export function zonesOfKeys(keys: Float64Array): { ids: Uint16Array; distinct: number[] } {
  const finder = new ZoneFinder();
  const ids = new Uint16Array(keys.length);
  const seen = new Set<number>();
  for (let i = 0; i < keys.length; i++) {
    const id = finder.ofKey(keys[i] as number);
    ids[i] = id;
    seen.add(id);
  }
  return { ids, distinct: [...seen].sort((a, b) => a - b) };
}
