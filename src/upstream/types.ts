/** The upstream HTTP client every source adapter uses (implementation: ./client.ts). */
export interface UpstreamRequest {
  url: string;
  method?: 'GET' | 'POST' | 'HEAD';
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** Retried on network errors and 5xx only when true; defaults to true for GET and HEAD. */
  idempotent?: boolean;
  /** Overrides the client's default timeout for this request. */
  timeoutMs?: number;
  /** Largest body accepted, in bytes; larger answers fail as sourceChanged. */
  maxBytes?: number;
  /** The address came from a caller: apply the SSRF guard (resolved addresses and every redirect). */
  userSupplied?: boolean;
  /** Statuses handed back to the caller instead of being mapped to a source* error (e.g. 404). */
  passStatuses?: number[];
}

/** One redirect followed on the way to the answer: the address that answered and its 3xx status. */
export interface UpstreamRedirect {
  url: string;
  status: number;
}

export interface UpstreamResponse {
  status: number;
  url: string;
  headers: Record<string, string>;
  /** The redirects followed before this answer, in order (empty when none). */
  redirects?: UpstreamRedirect[];
  body: Buffer;
  text(): string;
  /** Parses JSON; a body that is not JSON fails as sourceChanged. */
  json<T = unknown>(): T;
}

export interface UpstreamClient {
  request(req: UpstreamRequest, signal?: AbortSignal): Promise<UpstreamResponse>;
}
