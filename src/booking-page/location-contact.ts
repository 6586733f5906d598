import { isSupportedCountry, parsePhoneNumberFromString } from 'libphonenumber-js';
import type { LocationRow } from '../locations/locations.repository.js';

/** How a customer finds and reaches a location: its address, phone and a map link. */
export interface LocationContact {
  /** The postal address, one line each (street, extra line, postal code and city, country). */
  address: string[];
  /** The phone as stored, and its tel: link. */
  phone: { text: string; href: string } | undefined;
  /** An OpenStreetMap link: the pin when the location has coordinates, else a search. */
  map: string | undefined;
}

/** Countries that write the city before the postal code ("New York 10013"). */
const CITY_FIRST = new Set(['US', 'CA', 'GB', 'AU', 'IE', 'NZ', 'JP', 'KR', 'CN', 'BR', 'IN']);

export function locationContact(
  location: Pick<
    LocationRow,
    'address_1' | 'address_2' | 'city' | 'postal_code' | 'country_iso' | 'lat' | 'lng' | 'phone'
  >,
  locale: string,
): LocationContact {
  const country = location.country_iso.trim().toUpperCase();
  const city = location.city.trim();
  const postal = location.postal_code.trim();
  const place = (CITY_FIRST.has(country) ? [city, postal] : [postal, city]).filter(Boolean).join(' ');
  const streets = [location.address_1.trim(), location.address_2.trim()].filter(Boolean);
  const address = [...streets, place, country ? countryName(country, locale) : ''].filter(Boolean);
  const phone = location.phone.trim();
  const dial = phone.replace(/[^\d+]/g, '');
  // Stored as E.164 ("+12125550142"); people read it grouped ("+1 212 555 0142").
  const parsed = parsePhoneNumberFromString(phone, isSupportedCountry(country) ? country : undefined);
  return {
    address,
    phone:
      dial.replace('+', '').length >= 3
        ? { text: parsed?.isValid() ? parsed.formatInternational() : phone, href: `tel:${dial}` }
        : undefined,
    // A country alone is not an address anyone can be sent to.
    map: mapLink(
      location,
      streets.length > 0 || place
        ? [location.address_1.trim(), place, country].filter(Boolean).join(', ')
        : '',
    ),
  };
}

/**
 * A plain link, no map script or iframe on our page. Coordinates win: they point at the door;
 * an address search may land on the wrong street. The search leaves out address line 2
 * ("Suite 4", "2nd floor"), which only confuses the geocoder.
 */
function mapLink(location: { lat: number | null; lng: number | null }, query: string): string | undefined {
  const { lat, lng } = location;
  if (
    typeof lat === 'number' &&
    typeof lng === 'number' &&
    Number.isFinite(lat) &&
    Number.isFinite(lng) &&
    Math.abs(lat) <= 90 &&
    Math.abs(lng) <= 180
  ) {
    const [y, x] = [round(lat), round(lng)];
    return `https://www.openstreetmap.org/?mlat=${y}&mlon=${x}#map=17/${y}/${x}`;
  }
  if (!query) return undefined;
  return `https://www.openstreetmap.org/search?query=${encodeURIComponent(query)}`;
}

/** Five decimals are about a metre: enough for a door, and no long float tails in the URL. */
function round(value: number): string {
  return String(Math.round(value * 100_000) / 100_000);
}

function countryName(code: string, locale: string): string {
  try {
    return new Intl.DisplayNames([locale], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}
