import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it, vi } from 'vitest';
import Chip from '../../../../renderer/src/kit/Chip.svelte';
import Meter from '../../../../renderer/src/kit/Meter.svelte';

describe('Meter', () => {
  it('is a meter with its value in words, and draws the tone its thresholds give', () => {
    const { container } = render(Meter, {
      value: 95.5,
      label: 'Compliance of HubSpot',
      thresholds: [90, 98],
    });
    const meter = screen.getByRole('meter', { name: 'Compliance of HubSpot' });
    expect(meter.getAttribute('aria-valuenow')).toBe('95.5');
    expect(meter.getAttribute('aria-valuetext')).toBe('95.5 %');
    expect(container.querySelector('.fill')!.classList.contains('warn')).toBe(true);
  });

  it('clamps a value beyond its bounds and shows a score out of its maximum', () => {
    render(Meter, { value: 12, max: 10, label: 'Score', thresholds: [5, 8] });
    const meter = screen.getByRole('meter', { name: 'Score' });
    expect(meter.getAttribute('aria-valuenow')).toBe('10');
    expect(meter.textContent).toContain('12 of 10');
  });

  it('shows a dash and no bar when there is no value', () => {
    render(Meter, { value: null, label: 'Compliance' });
    expect(screen.queryByRole('meter')).toBeNull();
    expect(screen.getByText('—')).toBeTruthy();
  });
});

describe('Chip', () => {
  it('carries its tone in an icon and a word, not colour alone', () => {
    const { container } = render(Chip, { tone: 'bad', label: 'failing' });
    expect(container.textContent).toBe('✕failing');
    expect(container.querySelector('.icon')!.getAttribute('aria-hidden')).toBe('true');
  });

  it('a removable chip names what its button removes', async () => {
    const onremove = vi.fn();
    render(Chip, { label: 'acme.example', icon: false, onremove });
    await fireEvent.click(screen.getByRole('button', { name: 'Remove acme.example' }));
    expect(onremove).toHaveBeenCalledOnce();
  });
});
