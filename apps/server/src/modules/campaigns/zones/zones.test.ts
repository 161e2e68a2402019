import { getCountries } from 'libphonenumber-js';
import { describe, expect, it } from 'vitest';
import { recipientKeyOf } from '@herald/contract';
import { COUNTRY_ZONES } from './country-zones.js';
import { ZONE_IDS } from './zone-ids.js';
import { DEFAULT_COUNTRY, zoneName, zoneOfCountry, zonesOfKeys } from './zones.js';

const zoneOf = (digits: string) =>
  zoneName(zonesOfKeys(Float64Array.of(recipientKeyOf(digits))).ids[0] as number);

describe('a recipient’s zone from its number', () => {
  it('reads the country from the calling code', () => {
    expect(zoneOf('12125550100')).toBe('America/New_York'); // US
    expect(zoneOf('919876543210')).toBe('Asia/Kolkata'); // IN
    expect(zoneOf('447400123456')).toBe('Europe/London');
    expect(zoneOf('6281234567890')).toBe('Asia/Jakarta');
  });

  it('gives a country of several zones its most populous one, and tells apart a shared code', () => {
    expect(zoneOf('5511912345678')).toBe('America/Sao_Paulo'); // BR, whatever the area
    expect(zoneOf('5592912345678')).toBe('America/Sao_Paulo'); // BR, Manaus area code
    expect(zoneOf('79161234567')).toBe('Europe/Moscow'); // RU
    expect(zoneOf('77011234567')).toBe('Asia/Almaty'); // KZ shares +7
    expect(zoneOf('14165550100')).toBe('America/Toronto'); // CA shares +1
    expect(zoneOf('61412345678')).toBe('Australia/Sydney'); // AU
  });

  it('takes a number without a country code (10 digits or fewer) as the default country’s', () => {
    expect(DEFAULT_COUNTRY).toBe('IN');
    expect(zoneOf('9876543210')).toBe('Asia/Kolkata');
    expect(zoneOf('09876543210')).toBe('Asia/Kolkata'); // a trunk zero
    expect(zoneOf('2125550100')).toBe('Asia/Kolkata'); // a US number written without +1
    expect(zoneOf('9990000000001')).toBe('Asia/Kolkata'); // no such code: the default
  });

  it('covers every country libphonenumber-js knows, with zones this runtime knows', () => {
    for (const c of getCountries()) expect(COUNTRY_ZONES[c], c).toBeDefined();
    for (const z of ZONE_IDS)
      expect(() => new Intl.DateTimeFormat('en', { timeZone: z })).not.toThrow();
    expect(new Set(ZONE_IDS).size).toBe(ZONE_IDS.length);
    expect(ZONE_IDS[0]).toBe(zoneOfCountry(DEFAULT_COUNTRY));
  });

  it('lists the distinct zones of a campaign', () => {
    const keys = Float64Array.from(
      ['9876543210', '12125550100', '919876543211'].map(recipientKeyOf),
    );
    const { ids, distinct } = zonesOfKeys(keys.sort());
    expect(ids).toHaveLength(3);
    expect(distinct.map(zoneName).sort()).toEqual(['America/New_York', 'Asia/Kolkata']);
  });
});
