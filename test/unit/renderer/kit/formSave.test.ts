import { describe, expect, it, vi } from 'vitest';
import { FormSave } from '../../../../renderer/src/lib/formSave.svelte.ts';

type Errors = { rate?: string; form?: string };
const at = new Date(2026, 0, 5, 9, 30, 15);
const fromBridge = (error: unknown): Errors => ({ form: `Not saved: ${(error as Error).message}` });

describe('FormSave', () => {
  it('marks what the check found and sends nothing', async () => {
    const saver = new FormSave<Errors>(fromBridge, () => at.getTime());
    const send = vi.fn(async () => undefined);
    await saver.run({ update: null, errors: { rate: 'A number from 1 to 600.' } }, send);
    expect(send).not.toHaveBeenCalled();
    expect(saver.errors).toEqual({ rate: 'A number from 1 to 600.' });
    expect(saver.saved).toBeNull();
    expect(saver.saving).toBe(false);
  });

  it('holds the button while the update runs, then says when it saved and clears the marks', async () => {
    const saver = new FormSave<Errors>(fromBridge, () => at.getTime());
    await saver.run({ update: null, errors: { rate: 'x' } }, async () => undefined);
    let release!: () => void;
    const sent: number[] = [];
    const running = saver.run({ update: 60, errors: {} }, (update) => {
      sent.push(update);
      return new Promise<void>((resolve) => (release = resolve));
    });
    expect(saver.saving).toBe(true);
    expect(saver.errors).toEqual({});
    release();
    await running;
    expect(sent).toEqual([60]);
    expect(saver.saving).toBe(false);
    expect(saver.saved).toBe(`Saved at ${at.toLocaleTimeString()}.`);
  });

  it('marks a refusal in the form’s words and forgets the earlier “saved”', async () => {
    const saver = new FormSave<Errors>(fromBridge, () => at.getTime());
    await saver.run({ update: 1, errors: {} }, async () => undefined);
    expect(saver.saved).not.toBeNull();
    await saver.run({ update: 2, errors: {} }, async () => {
      throw new Error('the mirror is read-only');
    });
    expect(saver.errors).toEqual({ form: 'Not saved: the mirror is read-only' });
    expect(saver.saved).toBeNull();
    expect(saver.saving).toBe(false);
  });
});
