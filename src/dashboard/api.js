// The one way the dashboard talks to the server (docs/account-api.md): JSON in and out, the session cookie, the
// CSRF token on every state-changing call, and error envelopes turned into readable messages.

let csrfToken = null;
let onSessionLost = () => {};

export function setCsrfToken(token) {
  csrfToken = token ?? null;
}

/** Called when a signed-in call answers 401: the session ended (expired, or signed out elsewhere). */
export function setSessionLostHandler(fn) {
  onSessionLost = fn;
}

export class ApiError extends Error {
  constructor(status, code, message, details = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

/** Messages for codes whose server text is written for API clients rather than for a person at a form. */
function readableMessage(status, code, message, details) {
  if (code === 'rateLimited' && details.retryAfterSeconds) {
    return `Too many attempts. Try again in ${wait(details.retryAfterSeconds)}.`;
  }
  if (code === 'forbidden' && /csrf/i.test(message ?? '')) return 'Your session token is out of date. Reload the page and try again.';
  if (message) return message;
  if (status >= 500) return 'The server had a problem; nothing was changed. Try again in a moment.';
  return `The server answered ${status}.`;
}

function wait(seconds) {
  const s = Number(seconds);
  return s < 90 ? `${s} second${s === 1 ? '' : 's'}` : `${Math.ceil(s / 60)} minutes`;
}

/** Reads an answer: the `data` of a success envelope, the body itself when it has no envelope, or an ApiError. */
export async function readAnswer(res) {
  const text = await res.text();
  let json;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  if (!res.ok) {
    const e = json?.error;
    if (e && typeof e === 'object') {
      throw new ApiError(res.status, e.code, readableMessage(res.status, e.code, e.message, e), e);
    }
    if (json && typeof json.code === 'string') {
      // The legacy flat shape: {success:false, code, error}.
      throw new ApiError(res.status, json.code, readableMessage(res.status, json.code, json.error, {}), json);
    }
    throw new ApiError(res.status, 'httpError', readableMessage(res.status, undefined, undefined, {}));
  }
  if (json && json.success === true && 'data' in json) return json.data;
  return json;
}

/**
 * A call with the session cookie. `sessionCall: false` for sign-in and sign-up, whose 401 means "wrong password",
 * not "signed out".
 */
export async function api(method, path, body, { sessionCall = true } = {}) {
  const headers = { accept: 'application/json' };
  const init = { method, headers, credentials: 'same-origin', cache: 'no-store' };
  if (body !== undefined) {
    headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  if (method !== 'GET' && method !== 'HEAD' && csrfToken) headers['x-csrf-token'] = csrfToken;
  let res;
  try {
    res = await fetch(path, init);
  } catch {
    throw new ApiError(0, 'network', 'Could not reach the server. Check your connection and try again.');
  }
  try {
    return await readAnswer(res);
  } catch (e) {
    if (sessionCall && e instanceof ApiError && e.status === 401) onSessionLost();
    throw e;
  }
}

export const get = (path) => api('GET', path);
export const post = (path, body = {}, options) => api('POST', path, body, options);
export const put = (path, body) => api('PUT', path, body);
export const del = (path) => api('DELETE', path);

/** Query string from an object, leaving out empty values. */
export function qs(params) {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') p.set(k, String(v));
  const s = p.toString();
  return s ? `?${s}` : '';
}

/**
 * A data call with an API key, as a client program would make it ("try it"). No cookie is sent: the key alone
 * authenticates it. Answers the status, the headers worth showing and the parsed body.
 */
export async function callWithKey(path, key, body) {
  const started = performance.now();
  const res = await fetch(path, {
    method: 'POST',
    credentials: 'omit',
    cache: 'no-store',
    headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${key}` },
    body,
  });
  const text = await res.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const pick = ['x-request-id', 'x-credits-used', 'x-cache', 'x-cache-age', 'x-ratelimit-remaining'];
  return {
    status: res.status,
    ms: Math.round(performance.now() - started),
    headers: Object.fromEntries(pick.filter((k) => res.headers.has(k)).map((k) => [k, res.headers.get(k)])),
    json,
    text,
  };
}
