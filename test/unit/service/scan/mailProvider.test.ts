import { describe, expect, it } from 'vitest';
import { detectMailProvider, MAIL_PROVIDERS } from '../../../../service/scan/mailProvider.ts';

const mx = (...hosts: [number, string][]) => hosts.map(([priority, exchange]) => ({ priority, exchange }));

describe('detectMailProvider', () => {
  it.each([
    ['aspmx.l.google.com', 'Google Workspace'],
    ['ALT2.ASPMX.L.GOOGLE.COM.', 'Google Workspace'],
    ['mx.googlemail.com', 'Google Workspace'],
    ['contoso-com.mail.protection.outlook.com', 'Microsoft 365'],
    ['mx.zoho.eu', 'Zoho Mail'],
    ['mx0a-00123.pphosted.com', 'Proofpoint'],
    ['us-smtp-inbound-1.mimecast.com', 'Mimecast'],
    ['in1-smtp.messagingengine.com', 'Fastmail'],
    ['mail.protonmail.ch', 'Proton Mail'],
    ['inbound-smtp.eu-west-1.amazonaws.com', 'Amazon WorkMail / SES'],
    ['route1.mx.cloudflare.net', 'Cloudflare Email Routing'],
    ['mail.example.org', 'Other'],
  ])('%s → %s', (host, provider) => {
    expect(detectMailProvider(mx([10, host]))).toBe(provider);
  });

  it('matches whole labels only (notgoogle.com is not Google)', () => {
    expect(detectMailProvider(mx([10, 'mx.notgoogle.com']))).toBe('Other');
    expect(detectMailProvider(mx([10, 'google.com.evil.example']))).toBe('Other');
  });

  it('lets the preferred exchange (lowest priority, then first listed) decide', () => {
    expect(detectMailProvider(mx([20, 'aspmx.l.google.com'], [5, 'eu.mimecast.com']))).toBe('Mimecast');
    expect(detectMailProvider(mx([10, 'aspmx.l.google.com'], [10, 'eu.mimecast.com']))).toBe(
      'Google Workspace',
    );
  });

  it('answers None without MX records or with only a null MX', () => {
    expect(detectMailProvider([])).toBe('None');
    expect(detectMailProvider(mx([0, '.']))).toBe('None');
    expect(detectMailProvider(mx([0, '']))).toBe('None');
  });

  it('has no suffix claimed by two providers', () => {
    const suffixes = MAIL_PROVIDERS.flatMap((p) => p.suffixes);
    expect(new Set(suffixes).size).toBe(suffixes.length);
  });
});
