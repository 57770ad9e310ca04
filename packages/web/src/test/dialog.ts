/**
 * jsdom (27) has HTMLDialogElement but not showModal(), close() nor the Escape that cancels a
 * modal dialog. This stand-in does what components/Dialog.tsx relies on: `open` set and the
 * dialog remembered in a stack on showModal(); close() drops both and fires `close` a task
 * later, as browsers do; Escape anywhere fires a cancelable `cancel` at the top modal dialog and
 * closes it unless prevented. Not modelled: the top layer, inertness and the browser's own focus
 * moves (the component moves focus itself); the browser tests check those in Chromium.
 */
export function polyfillDialog(): void {
  const proto = HTMLDialogElement.prototype;
  if (typeof proto.showModal === 'function') return;
  const modals: HTMLDialogElement[] = [];
  proto.showModal = function showModal(this: HTMLDialogElement) {
    if (this.open) throw new DOMException('The dialog is already open.', 'InvalidStateError');
    this.setAttribute('open', '');
    modals.push(this);
  };
  proto.show = function show(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  proto.close = function close(this: HTMLDialogElement) {
    if (!this.open) return;
    this.removeAttribute('open');
    const i = modals.indexOf(this);
    if (i !== -1) modals.splice(i, 1);
    setTimeout(() => this.dispatchEvent(new Event('close')));
  };
  document.addEventListener('keydown', (e) => {
    const top = modals[modals.length - 1];
    if (e.key !== 'Escape' || !top?.isConnected) return;
    if (top.dispatchEvent(new Event('cancel', { cancelable: true }))) top.close();
  });
}
