/** The seven legacy paths of SPEC.md "Legacy endpoints", in the order it lists them. */
import type { LegacyPath } from '../types.js';
import { channelPath, playlistPath } from './channel.js';
import { kidsPath, musicPath } from './music.js';
import { searchPath, suggestPath } from './search.js';
import { videoPath } from './video.js';

export const LEGACY_PATHS: readonly LegacyPath[] = [videoPath, channelPath, searchPath, musicPath, kidsPath, playlistPath, suggestPath];
