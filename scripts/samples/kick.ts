/**
 * kick samples: the live operations against answers written from the documented interface (no Kick answer is recorded;
 * test/sources/kick-doubles.ts serves test/fixtures/documented/kick/).
 */
import { KICK_HOST, kickReplay } from '../../test/sources/kick-doubles.js';
import { PREVIOUS_CURSOR, recordSamples, type SampleCase } from './kit.js';

const DOCUMENTED =
  "Written from the documented interface, not a recording: Kick's web JSON as public clients save and type it " +
  '(test/fixtures/documented/kick/). No licensed recording of Kick exists in shared/upstream; values are illustrative.';

const CASES: Omit<SampleCase, 'replay' | 'note'>[] = [
  { endpoint: 'kick.channel', pages: [{ channel: 'examplelive' }] },
  {
    endpoint: 'kick.clips',
    pages: [
      { channel: 'examplestreamer', limit: 20 },
      { channel: 'examplestreamer', limit: 20, cursor: PREVIOUS_CURSOR },
    ],
  },
];

export async function kickSamples(): Promise<void> {
  for (const c of CASES) console.log(`wrote ${await recordSamples({ ...c, note: DOCUMENTED, replay: kickReplay(), extraHosts: [KICK_HOST] })}`);
}
