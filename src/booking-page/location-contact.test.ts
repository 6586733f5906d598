import { describe, expect, it } from 'vitest';
import { locationContact } from './location-contact.js';

const berlin = {
  address_1: 'Torstraße 125',
  address_2: '2nd floor',
  city: 'Berlin',
  postal_code: '10119',
  country_iso: 'DE',
  lat: 52.5296,
  lng: 13.4017,
  phone: '+493012345678',
};

describe('locationContact', () => {
  it('gives the address lines, a tel: link and a map pin from the coordinates', () => {
    expect(locationContact(berlin, 'en-US')).toEqual({
      address: ['Torstraße 125', '2nd floor', '10119 Berlin', 'Germany'],
      phone: { text: '+49 30 12345678', href: 'tel:+493012345678' },
      map: 'https://www.openstreetmap.org/?mlat=52.5296&mlon=13.4017#map=17/52.5296/13.4017',
    });
    expect(locationContact(berlin, 'de-DE').address.at(-1)).toBe('Deutschland');
  });

  it('searches the address when the coordinates are unknown, city first where that is the custom', () => {
    const newYork = {
      ...berlin,
      address_1: '148 Lafayette Street',
      address_2: 'Suite 4',
      city: 'New York',
      postal_code: '10013',
      country_iso: 'US',
      lat: null,
      lng: null,
    };
    const contact = locationContact(newYork, 'en-US');
    expect(contact.address).toEqual(['148 Lafayette Street', 'Suite 4', 'New York 10013', 'United States']);
    expect(contact.map).toBe(
      `https://www.openstreetmap.org/search?query=${encodeURIComponent('148 Lafayette Street, New York 10013, US')}`,
    );
  });

  it('has no phone or map link when there is nothing to call or find', () => {
    const empty = {
      ...berlin,
      address_1: '',
      address_2: '',
      city: '',
      postal_code: '',
      lat: null,
      lng: null,
    };
    expect(locationContact({ ...empty, phone: '' }, 'en-US')).toEqual({
      address: ['Germany'],
      phone: undefined,
      map: undefined,
    });
  });
});
