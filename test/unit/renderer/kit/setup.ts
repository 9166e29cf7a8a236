/** Each kit test starts from an empty document; jsdom gets the modal dialog the browsers have. */
import { cleanup } from '@testing-library/svelte';
import { afterEach } from 'vitest';

afterEach(() => cleanup());

// jsdom has <dialog> without showModal/close. This stands in for the browser's part only: `open` set and
// cleared, a cancelable 'cancel' event on Escape (closing unless prevented) and 'close' after closing.
// What the kit's Dialog does on top (focus, trap, labels, return of focus) is what the tests check.
const proto = window.HTMLDialogElement.prototype;
if (typeof proto.showModal !== 'function') {
  proto.showModal = function (this: HTMLDialogElement) {
    this.setAttribute('open', '');
    this.addEventListener('keydown', escape);
  };
  proto.close = function (this: HTMLDialogElement) {
    if (!this.hasAttribute('open')) return;
    this.removeAttribute('open');
    this.removeEventListener('keydown', escape);
    this.dispatchEvent(new Event('close'));
  };
}

function escape(this: HTMLDialogElement, event: KeyboardEvent): void {
  if (event.key !== 'Escape') return;
  const cancel = new Event('cancel', { cancelable: true });
  if (this.dispatchEvent(cancel)) this.close();
}
