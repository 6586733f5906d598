/**
 * The calendar grid's island: drag a booking to another time or staffer, press M on a
 * focused booking for the "Move to…" dialog, click an empty place to book it. Each ends in the
 * same plain form post the booking's page uses (POST /panel/bookings/:uuid/move), so the server
 * decides, conflicts included; without this script every block is a link to that page.
 * Plain DOM, no framework: the whole bundle is a few kB.
 */

interface Grid {
  root: HTMLElement;
  zone: string;
  mode: 'elapsed' | 'wall';
  from: number;
  scale: number;
  step: number;
  location: string;
  /** 'resource': columns are units (rooms, chairs), and a drop changes the booking's unit. */
  by: 'staff' | 'resource';
  form: HTMLFormElement;
  /** The dialog's title, labels and buttons, and the blocks' hint (the move form's `data-texts`). */
  texts: string[];
}

/** The island's texts in English; another language's come from the page, one per line. */
const ENGLISH = [
  'Move to…',
  'Date',
  'Time',
  'Staffer',
  'Move',
  'Cancel',
  'Drag to move, or press M',
  'Drag to another resource or time',
];

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const pad = (n: number) => String(n).padStart(2, '0');

/** Date and wall time ('YYYY-MM-DD', 'HH:MM') of an instant in the location's zone. */
function wallOf(ms: number, zone: string): { date: string; time: string } {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(ms));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return { date: `${get('year')}-${get('month')}-${get('day')}`, time: `${get('hour')}:${get('minute')}` };
}

function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** Where a y position (px from the column's top) lands: the date and time to send. */
function targetOf(grid: Grid, column: HTMLElement, y: number): { date: string; time: string; label: string } {
  const raw = y / grid.scale + grid.from;
  const minutes = Math.max(0, Math.round(raw / grid.step) * grid.step);
  const date = column.dataset.date ?? '';
  let target: { date: string; time: string };
  if (grid.mode === 'elapsed') {
    target = wallOf(Number(column.dataset.dayStart) + minutes * 60_000, grid.zone);
  } else {
    const day = Math.floor(minutes / 1440);
    const rest = minutes % 1440;
    target = { date: addDays(date, day), time: `${pad(Math.floor(rest / 60))}:${pad(rest % 60)}` };
  }
  return { ...target, label: `${target.time} · ${column.getAttribute('aria-label') ?? ''}` };
}

function columnAt(grid: Grid, x: number, y: number): HTMLElement | undefined {
  for (const column of grid.root.querySelectorAll<HTMLElement>('section.cal-col')) {
    const r = column.getBoundingClientRect();
    if (x >= r.left && x < r.right && y >= r.top && y < r.bottom) return column;
  }
  return undefined;
}

function submitMove(grid: Grid, bookingId: string, date: string, time: string, staffer: string): void {
  const form = grid.form;
  form.action = `/panel/bookings/${bookingId}/move`;
  (form.elements.namedItem('date') as HTMLInputElement).value = date;
  (form.elements.namedItem('reserved_on') as HTMLInputElement).value = time;
  (form.elements.namedItem('staffer_uuid') as HTMLInputElement).value = staffer;
  form.submit();
}

/**
 * A drop on a unit's column (the view by resource): the booking leaves the unit of the column it
 * was in for the one it is dropped on, at the dropped time if that moved. The server decides
 * (POST /panel/bookings/:uuid/unit, through the booking page's "Change resources" service).
 */
function submitUnit(
  grid: Grid,
  bookingId: string,
  from: string,
  to: string,
  at: { date: string; time: string } | undefined,
): void {
  const form = grid.form;
  form.action = `/panel/bookings/${bookingId}/unit`;
  (form.elements.namedItem('date') as HTMLInputElement).value = at?.date ?? '';
  (form.elements.namedItem('reserved_on') as HTMLInputElement).value = at?.time ?? '';
  (form.elements.namedItem('from_resource') as HTMLInputElement).value = from;
  (form.elements.namedItem('to_resource') as HTMLInputElement).value = to;
  form.submit();
}

/** A booking block links to its page, /panel/bookings/<uuid>: the uuid is the link's last part. */
function bookingIdOf(block: HTMLElement): string {
  return block.getAttribute('href')?.split('/').pop() ?? '';
}

/** Dragging: a pointer held on a booking and moved more than a few pixels. */
function enableDrag(grid: Grid): void {
  let drag:
    | { block: HTMLElement; x: number; y: number; grabY: number; moved: boolean; marker?: HTMLElement }
    | undefined;
  let suppressClick = false;

  grid.root.addEventListener('dragstart', (event) => event.preventDefault());
  grid.root.addEventListener('pointerdown', (event) => {
    const block = (event.target as HTMLElement).closest<HTMLElement>('a.blk[data-start]');
    if (!block || event.button !== 0) return;
    drag = {
      block,
      x: event.clientX,
      y: event.clientY,
      grabY: event.clientY - block.getBoundingClientRect().top,
      moved: false,
    };
  });
  grid.root.addEventListener('pointermove', (event) => {
    if (!drag) return;
    const dx = event.clientX - drag.x;
    const dy = event.clientY - drag.y;
    if (!drag.moved && Math.hypot(dx, dy) < 5) return;
    if (!drag.moved) {
      drag.moved = true;
      drag.block.classList.add('dragging');
      drag.block.setPointerCapture?.(event.pointerId);
    }
    drag.block.style.transform = `translate(${dx}px, ${dy}px)`;
    const column = columnAt(grid, event.clientX, event.clientY);
    drag.marker?.remove();
    drag.marker = undefined;
    if (column) {
      const top = event.clientY - drag.grabY - column.getBoundingClientRect().top;
      const target = targetOf(grid, column, top);
      const marker = document.createElement('div');
      marker.className = 'cal-drop';
      marker.style.top = `${Math.max(0, Math.round((Math.round((top / grid.scale + grid.from) / grid.step) * grid.step - grid.from) * grid.scale))}px`;
      marker.style.height = `${drag.block.offsetHeight}px`;
      marker.textContent = target.time;
      marker.setAttribute('aria-hidden', 'true');
      column.append(marker);
      drag.marker = marker;
    }
  });
  const finish = (event: PointerEvent, cancelled: boolean) => {
    if (!drag) return;
    const current = drag;
    drag = undefined;
    current.marker?.remove();
    if (!current.moved) return;
    suppressClick = true;
    const column = cancelled ? undefined : columnAt(grid, event.clientX, event.clientY);
    if (!column) {
      current.block.classList.remove('dragging');
      current.block.style.transform = '';
      return;
    }
    const top = event.clientY - current.grabY - column.getBoundingClientRect().top;
    const target = targetOf(grid, column, top);
    if (grid.by === 'resource') {
      const from = current.block.closest<HTMLElement>('section.cal-col')?.dataset.resource ?? '';
      const to = column.dataset.resource ?? '';
      const now = wallOf(Number(current.block.dataset.start), grid.zone);
      // Moved less than half a step up or down: straight across, the time kept (a booking off
      // the step grid, at 10:05, is not rounded to 10:00 by a drag to another room).
      const sameTime =
        (now.date === target.date && now.time === target.time) ||
        Math.abs(event.clientY - current.y) < (grid.step * grid.scale) / 2;
      if (sameTime && from === to) {
        current.block.classList.remove('dragging');
        current.block.style.transform = '';
        return;
      }
      current.block.setAttribute('aria-busy', 'true');
      submitUnit(grid, bookingIdOf(current.block), from, to, sameTime ? undefined : target);
      return;
    }
    current.block.setAttribute('aria-busy', 'true');
    submitMove(grid, bookingIdOf(current.block), target.date, target.time, column.dataset.staffer ?? '');
  };
  grid.root.addEventListener('pointerup', (event) => finish(event, false));
  grid.root.addEventListener('pointercancel', (event) => finish(event, true));
  // The click that ends a drag must not also open the booking.
  grid.root.addEventListener(
    'click',
    (event) => {
      if (suppressClick) {
        suppressClick = false;
        event.preventDefault();
        event.stopPropagation();
      }
    },
    true,
  );
}

/** The keyboard way: M on a focused booking opens "Move to…" (date, time, staffer). */
function enableMoveDialog(grid: Grid): void {
  const staffers = grid.root.querySelector<HTMLTemplateElement>('template[data-staffers]');
  const dialog = document.createElement('dialog');
  dialog.className = 'cal-dialog';
  dialog.setAttribute('aria-labelledby', 'cal-move-title');
  const [moveTo, date, time, staffer, move, cancel] = grid.texts.map(escapeHtml);
  dialog.innerHTML = `<form method="dialog"><h2 id="cal-move-title">${moveTo}</h2><p class="muted" data-what></p>
<div class="field"><label for="cal-move-date">${date}</label><input id="cal-move-date" type="date" name="date" required></div>
<div class="field"><label for="cal-move-time">${time}</label><input id="cal-move-time" type="time" name="time" step="60" required></div>
<div class="field"><label for="cal-move-staffer">${staffer}</label><select id="cal-move-staffer" name="staffer"></select></div>
<div class="row"><button type="submit" value="move">${move}</button><button type="submit" value="cancel" class="secondary" formnovalidate>${cancel}</button></div></form>`;
  const select = dialog.querySelector('select')!;
  if (staffers) select.append(staffers.content.cloneNode(true));
  grid.root.append(dialog);
  let bookingId = '';
  let opener: HTMLElement | undefined;

  const open = (block: HTMLElement) => {
    bookingId = bookingIdOf(block);
    opener = block;
    const wall = wallOf(Number(block.dataset.start), grid.zone);
    (dialog.querySelector('#cal-move-date') as HTMLInputElement).value = wall.date;
    (dialog.querySelector('#cal-move-time') as HTMLInputElement).value = wall.time;
    select.value = block.closest<HTMLElement>('section.cal-col')?.dataset.staffer ?? '';
    dialog.querySelector('[data-what]')!.textContent = block.textContent ?? '';
    dialog.showModal();
  };
  grid.root.addEventListener('keydown', (event) => {
    const block = (event.target as HTMLElement).closest?.<HTMLElement>('a.blk[data-start]');
    if (!block || event.key.toLowerCase() !== 'm' || event.ctrlKey || event.metaKey || event.altKey) return;
    event.preventDefault();
    open(block);
  });
  dialog.addEventListener('close', () => {
    if (dialog.returnValue !== 'move') {
      opener?.focus();
      return;
    }
    const date = (dialog.querySelector('#cal-move-date') as HTMLInputElement).value;
    const time = (dialog.querySelector('#cal-move-time') as HTMLInputElement).value;
    submitMove(grid, bookingId, date, time, select.value);
  });
  for (const block of grid.root.querySelectorAll<HTMLElement>('a.blk[data-start]')) {
    block.setAttribute('aria-keyshortcuts', 'M');
    block.title = grid.texts[6] ?? '';
  }
}

/** A click on a free place of a column books it: the new-booking page, prefilled. */
function enableClickToBook(grid: Grid): void {
  grid.root.addEventListener('click', (event) => {
    const target = event.target as HTMLElement;
    if (target.closest('.blk')) return;
    const column = target.closest<HTMLElement>('section.cal-col');
    if (!column) return;
    const top = event.clientY - column.getBoundingClientRect().top;
    const at = targetOf(grid, column, top);
    const params = new URLSearchParams({ location_uuid: grid.location });
    // A unit's column names no staffer: the new-booking page asks for one.
    if (column.dataset.staffer) params.set('staffer_uuid', column.dataset.staffer);
    params.set('date', at.date);
    params.set('reserved_on', at.time);
    window.location.assign(`/panel/bookings/new?${params}`);
  });
}

for (const root of document.querySelectorAll<HTMLElement>('[data-calendar]')) {
  const form = document.querySelector<HTMLFormElement>('form[data-move-form]');
  if (!form) continue;
  const grid: Grid = {
    root,
    zone: root.dataset.zone ?? 'UTC',
    mode: root.dataset.mode === 'wall' ? 'wall' : 'elapsed',
    from: Number(root.dataset.from),
    scale: Number(root.dataset.scale),
    step: Number(root.dataset.step) || 15,
    location: root.dataset.location ?? '',
    by: root.dataset.by === 'resource' ? 'resource' : 'staff',
    form,
    texts:
      form.dataset.texts?.split('\n').length === ENGLISH.length ? form.dataset.texts.split('\n') : ENGLISH,
  };
  enableDrag(grid);
  if (grid.by === 'resource') {
    // No "Move to…" dialog here (it picks a staffer): a keyboard opens the booking's page, whose
    // "Change resources" and "Move to…" forms do the same.
    for (const block of root.querySelectorAll<HTMLElement>('a.blk[data-start]'))
      block.title = grid.texts[7] ?? '';
  } else enableMoveDialog(grid);
  enableClickToBook(grid);
}
