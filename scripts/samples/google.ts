/**
 * google (Ads Transparency Center) samples: the live operations against answers written from the documented interface
 * (nothing is recorded; test/sources/google-doubles.ts serves test/fixtures/documented/google/).
 */
import { ATC_HOST, googleReplay } from '../../test/sources/google-doubles.js';
import { PREVIOUS_CURSOR, recordSamples, type SampleCase } from './kit.js';

const DOCUMENTED =
  "Written from the documented interface, not a recording: the Ads Transparency Center's RPC as public clients send and " +
  'read it (test/fixtures/documented/google/). No licensed recording of it exists in shared/upstream; the advertiser, ' +
  'ads and ids are illustrative.';

const CASES: Omit<SampleCase, 'replay' | 'note'>[] = [
  { endpoint: 'google.ads.advertisers', pages: [{ query: 'example' }] },
  {
    endpoint: 'google.ads.search',
    pages: [
      { domain: 'example.com', limit: 40 },
      { domain: 'example.com', limit: 40, cursor: PREVIOUS_CURSOR },
    ],
  },
  { endpoint: 'google.ads.ad', pages: [{ ad: 'https://adstransparency.google.com/advertiser/AR01000000000000000001/creative/CR00000000000000000001' }] },
];

export async function googleSamples(): Promise<void> {
  for (const c of CASES) console.log(`wrote ${await recordSamples({ ...c, note: DOCUMENTED, replay: googleReplay(), extraHosts: [ATC_HOST] })}`);
}
