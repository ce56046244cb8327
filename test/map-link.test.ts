import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { openStreetMapUrl, readMapLink } from '../src/lib/map-link';

// What a shop owner pastes into Settings → Locations, read into coordinates: the forms Google Maps
// and OpenStreetMap put in the address bar, and the numbers typed by hand.

describe('reading a pasted map link', () => {
  const read: { name: string; text: string; latitude: number; longitude: number }[] = [
    { name: 'typed coordinates', text: '52.520008, 13.404954', latitude: 52.520008, longitude: 13.404954 },
    { name: 'typed with a space only, south and west', text: ' -33.8688 -151.2093 ', latitude: -33.8688, longitude: -151.2093 },
    { name: 'Google Maps, the map shown', text: 'https://www.google.com/maps/@48.1371079,11.5753822,17z', latitude: 48.137108, longitude: 11.575382 },
    {
      name: 'Google Maps, a place: its pin, not the map’s centre',
      text: 'https://www.google.com/maps/place/Caf%C3%A9+Luitpold/@48.1423,11.5732,17z/data=!3m1!4b1!4m6!3m5!1s0x0:0x0!8m2!3d48.1426611!4d11.5738567',
      latitude: 48.142661,
      longitude: 11.573857,
    },
    { name: 'Google Maps, a place without a pin', text: 'https://www.google.de/maps/place/Bakery/@51.05,13.74,15z', latitude: 51.05, longitude: 13.74 },
    { name: 'Google Maps, ?q=', text: 'https://maps.google.com/?q=40.7128,-74.0060', latitude: 40.7128, longitude: -74.006 },
    { name: 'Google Maps, search ?query=', text: 'https://www.google.com/maps/search/?api=1&query=47.5951518%2C-122.3316393', latitude: 47.595152, longitude: -122.331639 },
    { name: 'OpenStreetMap, the map shown', text: 'https://www.openstreetmap.org/#map=19/52.51628/13.37771', latitude: 52.51628, longitude: 13.37771 },
    { name: 'OpenStreetMap, a marker wins over the map', text: 'https://www.openstreetmap.org/?mlat=52.5163&mlon=13.3777#map=15/52.51/13.38', latitude: 52.5163, longitude: 13.3777 },
    { name: 'without https://', text: 'www.openstreetmap.org/#map=17/45.4642/9.19', latitude: 45.4642, longitude: 9.19 },
    { name: 'a geo: link', text: 'geo:37.786971,-122.399677;u=35', latitude: 37.786971, longitude: -122.399677 },
  ];
  for (const c of read) {
    test(c.name, () => assert.deepEqual(readMapLink(c.text), { ok: true, coordinates: { latitude: c.latitude, longitude: c.longitude } }));
  }

  const refused: { name: string; text: string; problem: string | string[] }[] = [
    { name: 'nothing', text: '  ', problem: 'empty' },
    { name: 'a latitude past the pole', text: '91, 13', problem: 'range' },
    { name: 'a longitude past 180', text: '52, 181', problem: 'range' },
    { name: 'a short link', text: 'https://maps.app.goo.gl/Ab12Cd34', problem: 'short' },
    { name: 'a search without coordinates', text: 'https://www.google.com/maps/search/bakery+berlin', problem: 'none' },
    { name: 'an address', text: 'Hauptstraße 1, Berlin', problem: ['notLink', 'none'] },
    { name: 'a geo: link with words', text: 'geo:here', problem: 'geo' },
  ];
  for (const c of refused) {
    test(`refuses ${c.name}`, () => {
      const result = readMapLink(c.text);
      assert.equal(result.ok, false);
      assert.ok(!result.ok && [c.problem].flat().includes(result.problem), JSON.stringify(result));
    });
  }

  test('the web pass’s map link puts a marker on the place', () => {
    assert.equal(openStreetMapUrl({ latitude: 52.5, longitude: -1.25 }), 'https://www.openstreetmap.org/?mlat=52.5&mlon=-1.25#map=18/52.5/-1.25');
  });
});
