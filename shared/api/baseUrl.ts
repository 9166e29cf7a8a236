import { ApiError } from './apiError.ts';

function invalid(message: string): ApiError {
  return new ApiError({ status: 0, code: 'invalid_base_url', message, requestId: '', retryable: false });
}

/**
 * Turns a base URL as a user pastes it into the exact prefix requests are built on, without a trailing
 * slash: `https://host/api/v1`, `https://host/v1/`, `https://host/api/v1/domains` (an endpoint URL is cut
 * back to its version segment), `https://host/api` and bare `https://host` (→ `/api/v1` appended).
 * Throws ApiError `invalid_base_url` for anything that is not an http(s) URL.
 */
export function normalizeBaseUrl(input: string): string {
  const text = typeof input === 'string' ? input.trim() : '';
  if (!text) throw invalid('The base URL is empty; enter the address of the API, e.g. https://host/api/v1.');
  if (!/^https?:\/\//i.test(text)) {
    // Echo only the scheme: the rest of a mistaken paste may be something private.
    const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(text)?.[1];
    throw invalid(
      scheme
        ? `The base URL must start with https:// or http:// (it starts with "${scheme}:").`
        : 'The base URL must start with https:// or http:// (e.g. https://host/api/v1).',
    );
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalid('The base URL is not a valid address; expected e.g. https://host/api/v1.');
  }
  if (!url.hostname) throw invalid('The base URL has no host name; expected e.g. https://host/api/v1.');
  if (url.username || url.password) {
    // Credentials in a URL end up in logs and history; the token goes in the keychain instead.
    throw invalid('The base URL must not contain a user name or password.');
  }

  const segments = url.pathname.split('/').filter((segment) => segment !== '');
  const versionAt = segments.findIndex((segment) => segment.toLowerCase() === 'v1');
  let path: string;
  if (versionAt >= 0) {
    path = '/' + segments.slice(0, versionAt + 1).join('/');
  } else if (segments.length > 0 && segments[segments.length - 1]?.toLowerCase() === 'api') {
    path = '/' + [...segments, 'v1'].join('/');
  } else {
    path = '/' + [...segments, 'api', 'v1'].join('/');
  }
  return `${url.protocol}//${url.host}${path}`;
}
