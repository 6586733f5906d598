import { render } from 'preact';
import { useState } from 'preact/hooks';

/**
 * The copy button beside a secret or link shown once (a small island). The server renders the
 * value as selectable text, so without JavaScript it is copied by hand; with it, this button
 * appears in each `[data-copy-target]` placeholder and copies the element the attribute names.
 */
function CopyButton({ target }: { target: HTMLElement }) {
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
        {state === 'copied' ? 'Copied' : 'Copy'}
      </button>
      <span role="status" class="muted">
        {state === 'copied'
          ? 'Copied to the clipboard.'
          : state === 'failed'
            ? 'Selected: press Ctrl+C to copy.'
            : ''}
      </span>
    </>
  );
}

for (const slot of document.querySelectorAll<HTMLElement>('[data-copy-target]')) {
  const target = document.getElementById(slot.dataset.copyTarget ?? '');
  if (target) render(<CopyButton target={target} />, slot);
}
