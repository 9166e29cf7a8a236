import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it, vi } from 'vitest';
import TextFieldHarness from './harness/TextFieldHarness.svelte';

describe('TextField', () => {
  it('is an input named by its label, its hint read with it, with what the form asked of the input', () => {
    render(TextFieldHarness);
    const input = screen.getByLabelText('API token');
    expect(input).toHaveProperty('tagName', 'INPUT');
    expect(input.getAttribute('type')).toBe('password');
    expect(input.getAttribute('autocomplete')).toBe('off');
    expect(input.getAttribute('minlength')).toBe('8');
    expect(document.getElementById(input.getAttribute('aria-describedby')!)?.textContent).toBe(
      'Stored in the keychain.',
    );
    expect(input.getAttribute('aria-invalid')).toBeNull();
  });

  it('ties its error to the input and announces it', () => {
    render(TextFieldHarness, { error: 'A token is 8 characters or more.' });
    const input = screen.getByLabelText('API token');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(
      input
        .getAttribute('aria-describedby')!
        .split(' ')
        .map((id) => document.getElementById(id)?.textContent?.trim()),
    ).toEqual(['A token is 8 characters or more.', 'Stored in the keychain.']);
    expect(screen.getByRole('alert').textContent).toContain('A token is 8 characters or more.');
  });

  it('gives what is typed to the form: bound, or through oninput', async () => {
    const onlabel = vi.fn();
    render(TextFieldHarness, { onlabel });
    await fireEvent.input(screen.getByLabelText('API token'), { target: { value: 'secret-123' } });
    expect(screen.getByText('10 characters')).toBeTruthy();
    const label = screen.getByLabelText('Label');
    expect((label as HTMLInputElement).value).toBe('Acme');
    await fireEvent.input(label, { target: { value: 'Acme Corp' } });
    expect(onlabel).toHaveBeenLastCalledWith('Acme Corp');
  });

  it('without hint or error describes nothing; a width given sizes the box', () => {
    render(TextFieldHarness);
    const label = screen.getByLabelText('Label');
    expect(label.style.width).toBe('120px');
    expect(screen.getByLabelText('API token').style.width).toBe('');
    expect(label.getAttribute('aria-describedby')).toBeNull();
    expect(label.getAttribute('aria-invalid')).toBeNull();
  });
});
