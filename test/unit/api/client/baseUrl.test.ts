import { describe, expect, it } from 'vitest';
import { ApiError, normalizeBaseUrl } from '../../../../shared/api/client.ts';

describe('normalizeBaseUrl', () => {
  it.each([
    ['https://api.example.com/api/v1', 'https://api.example.com/api/v1'],
    ['https://api.example.com/api/v1/', 'https://api.example.com/api/v1'],
    ['https://api.example.com/v1', 'https://api.example.com/v1'],
    ['https://api.example.com/v1//', 'https://api.example.com/v1'],
    ['https://api.example.com', 'https://api.example.com/api/v1'],
    ['https://api.example.com/', 'https://api.example.com/api/v1'],
    ['https://api.example.com/api', 'https://api.example.com/api/v1'],
    ['https://api.example.com/api/v1/domains/3/health?x=1#top', 'https://api.example.com/api/v1'],
    ['HTTPS://API.Example.COM:8443/api/v1', 'https://api.example.com:8443/api/v1'],
    ['  http://127.0.0.1:3000/v1  ', 'http://127.0.0.1:3000/v1'],
    ['https://gw.example.com/tenant-7', 'https://gw.example.com/tenant-7/api/v1'],
  ])('%s → %s', (input, expected) => {
    expect(normalizeBaseUrl(input)).toBe(expected);
  });

  it.each([
    ['ftp://files.example.com/api/v1', 'starts with "ftp:"'],
    ['javascript:alert(1)', 'starts with "javascript:"'],
    ['api.example.com/api/v1', 'https://'],
    ['', 'empty'],
    ['   ', 'empty'],
    ['https://user:pass@api.example.com/api/v1', 'user name or password'],
    ['https://', 'not a valid address'],
  ])('refuses %j with a clear invalid_base_url error', (input, wording) => {
    let caught: unknown;
    try {
      normalizeBaseUrl(input);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ApiError);
    expect(caught).toMatchObject({ code: 'invalid_base_url', status: 0, retryable: false });
    expect((caught as ApiError).message).toContain(wording);
  });

  it('does not echo a mistaken paste beyond its scheme', () => {
    const paste = 'mailto:admin@example.com?subject=secret-thing';
    expect(() => normalizeBaseUrl(paste)).toThrowError(/mailto/);
    try {
      normalizeBaseUrl(paste);
    } catch (error) {
      expect((error as ApiError).message).not.toContain('secret-thing');
    }
  });
});
