import { render } from 'preact';
import { useState } from 'preact/hooks';

/**
 * The copy button beside a secret or link shown once (a small island). The server renders the
 * value as selectable text, so without JavaScript it is copied by hand; with it, this button
 * appears in each `[data-copy-target]` placeholder and copies the element the attribute names.
 */
/** The button's texts: the slot's `data-copy-texts` (one per line) outside English, else these. */
const ENGLISH = ['Copy', 'Copied', 'Copied to the clipboard.', 'Selected: press Ctrl+C to copy.'];

function CopyButton({ target, texts }: { target: HTMLElement; texts: string[] }) {
  const [copyLabel, copiedLabel, copiedStatus, failedStatus] = texts;
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  async function copy() {
    const text = target.textContent ?? '';
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      // No clipboard access (permissions, insecure origin): select it so Ctrl+C copies it.
      const range = document.createRange();
      range.selectNodeContents(target);
      const selection = window.getSelection();
      selection?.removeAllRanges();
      selection?.addRange(range);
      setState('failed');
    }
  }
  return (
    <>
      <button type="button" class="secondary" onClick={copy}>
        {state === 'copied' ? copiedLabel : copyLabel}
      </button>
      <span role="status" class="muted">
        {state === 'copied' ? copiedStatus : state === 'failed' ? failedStatus : ''}
      </span>
    </>
  );
}

for (const slot of document.querySelectorAll<HTMLElement>('[data-copy-target]')) {
  const target = document.getElementById(slot.dataset.copyTarget ?? '');
  const texts = slot.dataset.copyTexts?.split('\n');
  if (target) render(<CopyButton target={target} texts={texts?.length === 4 ? texts : ENGLISH} />, slot);
}
