import { render, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import FieldHarness from './harness/FieldHarness.svelte';

describe('Field', () => {
  it('labels its control and reads the hint with it', () => {
    render(FieldHarness, { label: 'Policy', hint: 'What receivers do with mail that fails DMARC.' });
    const input = screen.getByLabelText('Policy');
    expect(input).toHaveProperty('tagName', 'INPUT');
    const described = input.getAttribute('aria-describedby')!.split(' ');
    expect(described.map((id) => document.getElementById(id)?.textContent)).toEqual([
      'What receivers do with mail that fails DMARC.',
    ]);
    expect(input.getAttribute('aria-invalid')).toBeNull();
  });

  it('ties its error to the control (aria-describedby, aria-invalid) and announces it', () => {
    render(FieldHarness, { label: 'Percentage', hint: 'From 0 to 100.', error: 'Must be 100 or less.' });
    const input = screen.getByLabelText('Percentage');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    const texts = input
      .getAttribute('aria-describedby')!
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent?.trim());
    expect(texts).toEqual(['Must be 100 or less.', 'From 0 to 100.']);
    expect(screen.getByRole('alert').textContent).toContain('Must be 100 or less.');
  });

  it('says a required field is required to assistive technology', () => {
    render(FieldHarness, { label: 'Domain name', required: true });
    expect(
      screen
        .getByLabelText(/Domain name/)
        .closest('div')!
        .querySelector('label')!.textContent,
    ).toContain('(required)');
  });

  it('shows several errors, each on its line', () => {
    render(FieldHarness, { label: 'Mail servers', error: ['line 1: not a host', 'line 3: not a host'] });
    expect(screen.getByRole('alert').innerHTML).toContain('<br>');
  });

  it('as a group, names the group by its label and describes it with its error', () => {
    render(FieldHarness, { label: 'Scopes', group: true, error: 'Choose at least one.' });
    const group = screen.getByRole('group', { name: 'Scopes' });
    expect(document.getElementById(group.getAttribute('aria-describedby')!)?.textContent).toContain(
      'Choose at least one.',
    );
  });
});
