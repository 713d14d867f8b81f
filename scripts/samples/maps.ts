/**
 * maps samples: the live operations against the recorded OpenStreetMap answers (shared/upstream/maps: Overpass from
 * mvexel/overpass-api-python-wrapper, Apache-2.0; Nominatim from geocoder-php/Geocoder, MIT; data © OpenStreetMap
 * contributors, ODbL 1.0) on loopback. maps.reviews needs none: it fetches nothing and answers the same in both modes.
 */
import { recordSamples } from './kit.js';
import { haveRecordings } from '../../test/helpers/replay.js';

const SETTINGS = { CONTACT: 'samples@quarry.invalid', NOMINATIM_INTERVAL_MS: '0' };

export async function mapsSamples(): Promise<void> {
  if (!haveRecordings('maps')) {
    console.log('maps samples skipped: shared/upstream/maps not found');
    return;
  }
  const search = await recordSamples({
    endpoint: 'maps.search',
    replay: {
      folders: [],
      routes: [
        {
          method: 'POST',
          host: 'overpass-api.de',
          path: '/api/interpreter',
          file: 'maps/overpass/example_singlenode.json',
          name: 'shared/upstream/maps/overpass/example_singlenode.json (mvexel/overpass-api-python-wrapper @ e1a7b43b, Apache-2.0)',
        },
      ],
    },
    settings: SETTINGS,
    pages: [{ category: 'cafe', latitude: -15.7942, longitude: -47.8822, radiusMeters: 5000, limit: 10 }],
    note:
      'Normalised by src/sources/maps from a real Overpass answer (shared/upstream/maps/overpass/example_singlenode.json: the cafés of ' +
      'an area of Brasília, recorded 2022-07-26 for an area query rather than the around query Quarry sends), nearest ten to a point ' +
      'in the city centre. The catalogue example asks for cafés near the Louvre; test mode answers this recorded search. ' +
      'Data © OpenStreetMap contributors, ODbL 1.0; test data only.',
  });
  console.log(`wrote ${search}`);
  const details = await recordSamples({
    endpoint: 'maps.details',
    replay: { folders: ['maps/nominatim'] },
    settings: SETTINGS,
    pages: [{ latitude: 48.86, longitude: 2.35 }],
    note:
      'Normalised by src/sources/maps from a real Nominatim reverse answer (shared/upstream/maps/nominatim/reverse-jsonv2.paris.json, ' +
      'geocoder-php/Geocoder tests, MIT, recorded 2021-06-20): the place at 48.86, 2.35, the node the catalogue example names. ' +
      'Data © OpenStreetMap contributors, ODbL 1.0; test data only.',
  });
  console.log(`wrote ${details}`);
}
