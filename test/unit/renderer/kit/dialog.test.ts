import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it, vi } from 'vitest';
import DialogHarness from './harness/DialogHarness.svelte';

async function openDialog() {
  const opener = screen.getByRole('button', { name: 'Delete acme.example…' });
  opener.focus();
  await fireEvent.click(opener);
  return { opener, dialog: screen.getByRole('dialog', { name: 'Delete acme.example?' }) };
}

describe('Dialog', () => {
  it('is a modal named by its title and described by its body, with Cancel focused first', async () => {
    render(DialogHarness, { onconfirm: vi.fn() });
    const { dialog } = await openDialog();
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(document.getElementById(dialog.getAttribute('aria-describedby')!)?.textContent).toContain(
      'It stops being watched',
    );
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel' }));
  });

  it('keeps Tab and Shift+Tab inside it', async () => {
    render(DialogHarness, { onconfirm: vi.fn() });
    const { dialog } = await openDialog();
    const cancel = screen.getByRole('button', { name: 'Cancel' });
    const confirm = screen.getByRole('button', { name: 'Delete acme.example' });
    confirm.focus();
    await fireEvent.keyDown(dialog, { key: 'Tab' });
    expect(document.activeElement).toBe(cancel);
    await fireEvent.keyDown(dialog, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(confirm);
  });

  it('closes on Escape without confirming, and gives the focus back to what opened it', async () => {
    const onconfirm = vi.fn();
    render(DialogHarness, { onconfirm });
    const { opener, dialog } = await openDialog();
    await fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(onconfirm).not.toHaveBeenCalled();
    expect(screen.getByText('Cancelled 1 times')).toBeTruthy();
    expect(dialog.hasAttribute('open')).toBe(false);
    expect(document.activeElement).toBe(opener);
  });

  it('confirms with the button named for the action', async () => {
    const onconfirm = vi.fn();
    render(DialogHarness, { onconfirm });
    const { opener } = await openDialog();
    await fireEvent.click(screen.getByRole('button', { name: 'Delete acme.example' }));
    expect(onconfirm).toHaveBeenCalledOnce();
    expect(document.activeElement).toBe(opener);
  });

  it('asks for the typed name first: the confirm button stays disabled until it matches', async () => {
    const onconfirm = vi.fn();
    render(DialogHarness, { onconfirm, typeToConfirm: 'acme.example' });
    await openDialog();
    const typed = screen.getByRole('textbox', { name: 'Type acme.example to confirm' });
    expect(document.activeElement).toBe(typed);
    const confirm = screen.getByRole('button', { name: 'Delete acme.example' });
    expect(confirm).toHaveProperty('disabled', true);
    await fireEvent.input(typed, { target: { value: 'acme.exampl' } });
    expect(confirm).toHaveProperty('disabled', true);
    expect(typed.getAttribute('aria-invalid')).toBe('true');
    // Enter in the box does not confirm a name that does not match.
    await fireEvent.submit(typed.closest('form')!);
    expect(onconfirm).not.toHaveBeenCalled();
    await fireEvent.input(typed, { target: { value: 'ACME.example ' } });
    expect(confirm).toHaveProperty('disabled', false);
    await fireEvent.click(confirm);
    expect(onconfirm).toHaveBeenCalledOnce();
  });

  it('while busy, the confirm button is disabled', async () => {
    render(DialogHarness, { onconfirm: vi.fn(), busy: true });
    await openDialog();
    expect(screen.getByRole('button', { name: 'Delete acme.example' })).toHaveProperty('disabled', true);
  });
});
