/**
 * The generic sample maker: runs an endpoint's live operation against the replay double (real recordings on
 * loopback, the source's real client and normaliser), page after page, and writes the pages with the recordings each
 * was built from. A source lists its cases in scripts/samples/<source>.ts.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { SampleSet } from '../../src/sources/kit/samples.js';
import { startReplay, type Recording, type ReplayOptions, type Seen } from '../../test/helpers/replay.js';
import { liveContext, operationOf, runLive } from '../../test/helpers/source-kit.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));

/** Stands for "the cursor the previous page answered" in a later page's input. */
export const PREVIOUS_CURSOR = Symbol('previous cursor');

export interface SampleCase {
  endpoint: string;
  /** The replay double's options (folders, ignored fields, extra routes). */
  replay: ReplayOptions;
  /** The body of each page's call; a later page's paging field may be PREVIOUS_CURSOR. */
  pages: Record<string, unknown>[];
  /** Operator settings the live call needs (e.g. a token the recordings were made with). */
  settings?: Record<string, string>;
  /** Extra hosts the double answers for (routes without a recorded host). */
  extraHosts?: string[];
  /** What a reader of the sample should know (what the recordings are of, what they do not show). */
  note: string;
  /** The sample file's name under the source's samples/ folder, when an endpoint keeps several sets (default `<operation>`). */
  name?: string;
  /**
   * Where recordings without a sidecar came from (repository, commit, path, licence), by their path under
   * ../shared/upstream: a route serving one of them (`file`) is listed in the provenance with its origin and request.
   */
  origins?: Record<string, Record<string, unknown>>;
}

export function writeSampleSet(target: string, set: SampleSet): void {
  writeFileSync(`${repo}${target}`, `${JSON.stringify(set, null, 1)}\n`);
}

function provenanceOf(s: Seen, r: Recording | undefined, origins: SampleCase['origins']): Record<string, unknown> {
  const name = s.answeredBy!;
  if (r) return { recording: `shared/upstream/${r.name}`, ...r.origin, request: `${r.method} https://${r.host}${r.path}` };
  const origin = origins?.[name];
  const query = [...s.query].length ? `?${s.query}` : '';
  return origin ? { recording: `shared/upstream/${name}`, ...origin, request: `${s.method} https://${s.host}${s.path}${query}` } : { recording: name };
}

/** Runs one case and writes src/sources/<source>/samples/<operation>.json. */
export async function recordSamples(c: SampleCase): Promise<string> {
  const { target, set } = await buildSamples(c);
  writeSampleSet(target, set);
  return target;
}

/** Runs one case: the sample set and the file it belongs in (a test compares it with the committed one). */
export async function buildSamples(c: SampleCase): Promise<{ target: string; set: SampleSet }> {
  const op = operationOf(c.endpoint);
  const field = op.endpoint.pagingField;
  const replay = await startReplay(c.replay);
  const live = liveContext(c.endpoint.split('.')[0], replay, c.settings, c.extraHosts);
  try {
    const set: SampleSet = { _provenance: { note: c.note, pages: [] }, pages: [] };
    let previous: unknown;
    for (const [i, body] of c.pages.entries()) {
      const input = { ...body };
      if (field && input[field] === PREVIOUS_CURSOR) {
        if (typeof previous !== 'string') throw new Error(`${c.endpoint}: page ${i} wants the previous cursor, and page ${i - 1} gave none`);
        input[field] = previous;
      }
      const before = replay.seen.length;
      const out = await runLive(c.endpoint, input, live.ctx);
      const misses = replay.seen.slice(before).filter((s) => !s.answeredBy);
      if (misses.length) throw new Error(`${c.endpoint}: page ${i} asked what no recording answers: ${misses.map((m) => `${m.method} ${m.host}${m.path}`).join(', ')}`);
      (set._provenance.pages as unknown[]).push({
        input,
        recordings: replay.seen.slice(before).map((s) => provenanceOf(s, replay.recordings.find((r) => r.name === s.answeredBy), c.origins)),
      });
      set.pages.push({ ...(i > 0 && field ? { request: { [field]: input[field] } } : {}), data: out.data });
      previous = field ? out.data[field] : undefined;
    }
    const [source, ...rest] = c.endpoint.split('.');
    return { target: `src/sources/${source}/samples/${c.name ?? rest.join('.')}.json`, set };
  } finally {
    await live.close();
    await replay.close();
  }
}
