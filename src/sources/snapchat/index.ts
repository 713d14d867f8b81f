/** The snapchat source: a public profile and the Spotlight videos it shows, both read from the profile page. */
import { SNAPCHAT } from '../../catalogue/endpoints/snapchat.js';
import { operation } from '../kit/operation.js';
import type { SourceModule } from '../types.js';
import { fetchProfilePage } from './client.js';
import { accountOf, profileRecord, spotlightVideos } from './normalise.js';
import { usernameOf } from './refs.js';
import profileSamples from './samples/profile.json' with { type: 'json' };
import spotlightSamples from './samples/spotlight.json' with { type: 'json' };

const profile = operation(SNAPCHAT.profile, {
  async run(input, ctx) {
    const page = await fetchProfilePage(usernameOf(input.profile), ctx);
    return { data: { profile: profileRecord(page.props, page.ld) } };
  },
  samples: profileSamples,
});

const spotlight = operation(SNAPCHAT.spotlight, {
  async run(input, ctx) {
    const username = usernameOf(input.profile);
    const { props } = await fetchProfilePage(username, ctx);
    // An ordinary account shows a logged-out visitor no Spotlight: an answer with nothing in it, not a failure.
    if (accountOf(props).kind !== 'publicProfileInfo') return { data: { videos: [] }, free: true };
    const videos = spotlightVideos(props, username).slice(0, input.limit);
    return { data: { videos }, ...(videos.length ? {} : { free: true }) };
  },
  samples: spotlightSamples,
});

const snapchat: SourceModule = {
  id: 'snapchat',
  needs: { proxy: 'advised' },
  operations: [profile, spotlight],
};

export default snapchat;
