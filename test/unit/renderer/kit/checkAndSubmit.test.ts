import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it, vi } from 'vitest';
import FormHarness from './harness/FormHarness.svelte';

describe('Check', () => {
  it('is a checkbox named by its words, its hint read with it, and says the new state', async () => {
    const onchange = vi.fn();
    render(FormHarness, { hint: 'Off: alerts notify at any hour.', onchange });
    const box = screen.getByRole('checkbox', { name: 'Quiet hours' });
    expect(document.getElementById(box.getAttribute('aria-describedby')!)?.textContent).toBe(
      'Off: alerts notify at any hour.',
    );
    await fireEvent.click(box);
    expect(onchange).toHaveBeenLastCalledWith(true);
    await fireEvent.click(box);
    expect(onchange).toHaveBeenLastCalledWith(false);
  });

  it('without a hint describes nothing; disabled, it cannot be ticked', async () => {
    const onchange = vi.fn();
    render(FormHarness, { disabled: true, onchange });
    const box = screen.getByRole('checkbox', { name: 'Quiet hours' });
    expect(box.getAttribute('aria-describedby')).toBeNull();
    expect(box).toHaveProperty('disabled', true);
  });
});

describe('FormSubmit', () => {
  it('says nothing was saved while fields are marked, and announces it', () => {
    render(FormHarness, { errors: { scoreStep: 'A number from 0.1 to 10.' } });
    expect(screen.getByRole('alert').textContent).toContain('Correct the marked fields; nothing was saved.');
  });

  it('a whole-form error is said instead of the reminder', () => {
    render(FormHarness, { errors: { form: 'Not saved: the mirror is read-only.', scoreStep: 'x' } });
    const alerts = screen.getAllByRole('alert');
    expect(alerts.map((a) => a.textContent)).toEqual(['Not saved: the mirror is read-only.']);
  });

  it('while saving, the button says so and cannot be pressed again; then says when it saved', async () => {
    const { rerender } = render(FormHarness, { saving: true });
    const button = screen.getByRole('button', { name: 'Saving…' });
    expect(button).toHaveProperty('disabled', true);
    await rerender({ saving: false, saved: 'Saved at 14:02:00.' });
    expect(screen.getByRole('button', { name: 'Save settings' })).toHaveProperty('disabled', false);
    expect(screen.getByRole('status').textContent).toContain('Saved at 14:02:00.');
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
