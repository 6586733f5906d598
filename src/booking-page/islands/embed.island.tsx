/**
 * /embed.js, for the business's own site, with no dependencies:
 *   <a href="https://kairos.example/book/studio" data-kairos="inline">Book</a>   -> an iframe here
 *   <a href="https://kairos.example/book/studio" data-kairos="popup">Book</a>    -> a <dialog>
 *   <script src="https://kairos.example/embed.js" defer></script>
 * The iframe takes the height its page reports. Messages are accepted only from that iframe's
 * window (event.source) and the booking page's origin (event.origin). A finished booking fires a
 * `kairos:booked` event on the link's place (no personal data travels). Esc closes the popup and
 * focus returns to the link.
 */
(() => {
  const frames: { frame: HTMLIFrameElement; origin: string; dialog?: HTMLDialogElement; anchor: Element }[] =
    [];

  function frameFor(link: HTMLAnchorElement): { frame: HTMLIFrameElement; origin: string } {
    const url = new URL(link.href);
    url.searchParams.set('embed', '1');
    const frame = document.createElement('iframe');
    frame.src = url.href;
    frame.title = link.textContent?.trim() || 'Online booking';
    frame.style.cssText = 'display:block;width:100%;border:0;height:480px';
    return { frame, origin: url.origin };
  }

  for (const link of document.querySelectorAll<HTMLAnchorElement>('a[data-kairos]')) {
    if (link.dataset.kairos === 'popup') {
      link.addEventListener('click', (event) => {
        event.preventDefault();
        const { frame, origin } = frameFor(link);
        const dialog = document.createElement('dialog');
        dialog.setAttribute('aria-label', frame.title);
        dialog.style.cssText =
          'width:min(42rem,calc(100vw - 1rem));max-height:90vh;overflow:auto;padding:0;border:0;border-radius:8px';
        const close = document.createElement('button');
        close.type = 'button';
        close.textContent = '×';
        close.setAttribute('aria-label', 'Close');
        close.style.cssText =
          'float:right;font-size:1.5rem;border:0;background:none;cursor:pointer;padding:0 .5rem';
        close.onclick = () => dialog.close();
        dialog.append(close, frame);
        dialog.addEventListener('close', () => {
          dialog.remove();
          frames.splice(
            frames.findIndex((f) => f.frame === frame),
            1,
          );
          link.focus();
        });
        document.body.append(dialog);
        frames.push({ frame, origin, dialog, anchor: link });
        dialog.showModal();
      });
    } else {
      const { frame, origin } = frameFor(link);
      link.replaceWith(frame);
      frames.push({ frame, origin, anchor: frame });
    }
  }

  addEventListener('message', (event) => {
    const entry = frames.find((f) => f.frame.contentWindow === event.source);
    if (!entry || event.origin !== entry.origin) return;
    const data = event.data;
    if (data?.kairos !== 1) return;
    if (data.type === 'resize' && typeof data.height === 'number') {
      entry.frame.style.height = `${Math.min(Math.max(Math.ceil(data.height), 120), 20000)}px`;
    } else if (data.type === 'booked') {
      entry.anchor.dispatchEvent(new CustomEvent('kairos:booked', { bubbles: true }));
    } else if (data.type === 'close') {
      entry.dialog?.close();
    }
  });
})();
