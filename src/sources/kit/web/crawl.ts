/**
 * The bounded crawler of the open-web sources: a frontier of addresses (breadth-first in discovery order, or best
 * first by a score) and a loop that fetches it a few pages at a time until the wanted pages, the fetch limit, the
 * frontier or the budget runs out. A source says what to admit (robots.txt, depth, file types), how to read a page,
 * and what each page offers next; the loop keeps the bounds.
 *
 *   const frontier = new Frontier({ order: 'best', capacity: 500 });
 *   frontier.offer(new URL('https://example.com/contact'), { score: 90 });
 *   await crawl({ frontier, parallel: 3, maxFetches: 12, visit, onResult, admit: (c) => robots.allows(c.url) });
 */

export interface Candidate {
  url: URL;
  /** The frontier's identity of the address (see FrontierOptions.key). */
  key: string;
  /** Links followed from a start address (0 for a start address). */
  depth: number;
  /** Higher first, in a best-first frontier. */
  score: number;
  /** Order of discovery. */
  seq: number;
}

export interface FrontierOptions {
  /**
   * `discovery`: first found, first fetched, and every address stays listed (the frontier is the site's listing);
   * `best`: the highest score first (ties in discovery order), and a taken address leaves.
   */
  order: 'discovery' | 'best';
  /** Addresses held (listed for `discovery`, waiting for `best`); offers beyond it are dropped. */
  capacity: number;
  /** Identity of an address: two with one key are one page (default: the address without its fragment). */
  key?: (url: URL) => string;
}

const withoutFragment = (url: URL): string => url.href.replace(/#.*$/, '');

export class Frontier {
  private readonly listed: Candidate[] = [];
  private readonly byKey = new Map<string, Candidate>();
  /** Keys that will never be offered again: taken, or marked as read. */
  private readonly seen = new Set<string>();
  private cursor = 0;
  private seq = 0;
  private readonly key: (url: URL) => string;

  constructor(private readonly options: FrontierOptions) {
    this.key = options.key ?? withoutFragment;
  }

  /**
   * Adds an address, unless it is known or the frontier is full. Answers its candidate: the new one, or for
   * `discovery` the one already listed; in `best` order, a waiting address offered again keeps its higher score.
   */
  offer(url: URL, { depth = 0, score = 0 }: { depth?: number; score?: number } = {}): Candidate | undefined {
    const key = this.key(url);
    if (this.seen.has(key)) return undefined;
    const known = this.byKey.get(key);
    if (known) {
      if (score > known.score) known.score = score;
      return known;
    }
    const held = this.options.order === 'discovery' ? this.listed.length : this.byKey.size;
    if (held >= this.options.capacity) return undefined;
    const candidate: Candidate = { url, key, depth, score, seq: this.seq++ };
    this.byKey.set(key, candidate);
    if (this.options.order === 'discovery') this.listed.push(candidate);
    return candidate;
  }

  /** An address read some other way (the start page, where a redirect landed): never offered again. */
  markSeen(url: URL): void {
    const key = this.key(url);
    this.seen.add(key);
    if (this.options.order === 'best') this.byKey.delete(key);
  }

  /** Every address listed, in discovery order (`discovery` only). */
  all(): readonly Candidate[] {
    return this.listed;
  }

  /** Addresses not taken yet. */
  get waiting(): number {
    return this.options.order === 'discovery' ? this.listed.length - this.cursor : this.byKey.size;
  }

  /** The candidate of an address, if listed or waiting. */
  get(url: URL): Candidate | undefined {
    return this.byKey.get(this.key(url));
  }

  /**
   * Up to `n` candidates, next first, that `admit` lets through; the ones it refuses are passed over (and, in `best`
   * order, dropped).
   */
  async take(n: number, admit?: (c: Candidate) => boolean | Promise<boolean>): Promise<Candidate[]> {
    const out: Candidate[] = [];
    if (this.options.order === 'discovery') {
      for (; this.cursor < this.listed.length && out.length < n; this.cursor++) {
        const c = this.listed[this.cursor];
        if (!admit || (await admit(c))) out.push(c);
      }
      return out;
    }
    const ranked = [...this.byKey.values()].sort((a, b) => b.score - a.score || a.seq - b.seq);
    for (const c of ranked) {
      if (out.length >= n) break;
      this.byKey.delete(c.key);
      this.seen.add(c.key);
      if (!admit || (await admit(c))) out.push(c);
    }
    return out;
  }
}

export interface CrawlOptions<R> {
  frontier: Frontier;
  /** Fetches and reads one page. A page's own failure should be a result, not a rejection (that ends the crawl). */
  visit(candidate: Candidate): Promise<R>;
  /** Each result, in the batch's order once the whole batch is in: offer the page's links to the frontier here. */
  onResult(candidate: Candidate, result: R): void;
  /** Whether the crawler may fetch a candidate (robots.txt, depth, file types); refused ones are passed over. */
  admit?(candidate: Candidate): boolean | Promise<boolean>;
  /** Pages fetched at once. */
  parallel: number;
  /** Pages fetched at most over the whole crawl. */
  maxFetches: number;
  /** How many more pages are wanted; a batch never asks for more, and 0 ends the crawl. */
  wanted?(): number;
  /** Checked before each batch: a spent budget, an aborted signal, a byte total reached. */
  stop?(): boolean;
}

/** Runs the crawl; answers how many pages were fetched. */
export async function crawl<R>(o: CrawlOptions<R>): Promise<{ fetched: number }> {
  let fetched = 0;
  while (fetched < o.maxFetches && !o.stop?.()) {
    const room = Math.min(o.parallel, o.maxFetches - fetched, o.wanted?.() ?? Infinity);
    if (room <= 0) break;
    const batch = await o.frontier.take(room, o.admit);
    if (!batch.length) break;
    fetched += batch.length;
    const results = await Promise.all(batch.map((c) => o.visit(c)));
    batch.forEach((c, i) => o.onResult(c, results[i]));
  }
  return { fetched };
}
