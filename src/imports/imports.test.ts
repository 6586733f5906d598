import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStudio, type Studio } from '../../test/bookings/bookings-kit.js';
import { bookingsCsv } from '../bookings/bookings-export.service.js';
import { customersCsv } from '../customers/customers-export.service.js';
import { findWorkspaceById, type WorkspaceRow } from '../workspaces/workspaces.repository.js';
import { openWritePath } from '../write-path.js';
import { readStart } from './import-rows.rules.js';
import { type ImportReport, previewImport, runImport } from './imports.service.js';

/**
 * Import from CSV (docs/import-export.md): a preview that writes nothing, a run through the
 * features' own services row by row, errors per row, and a second import of the same file that
 * changes nothing. Export files import back.
 */
let s: Studio;
beforeAll(async () => {
  s = await openStudio();
});
afterAll(() => s.t.close());

let workspace: WorkspaceRow;
beforeAll(async () => {
  // As the workspace is now (the studio changed its settings after the test app read it).
  workspace = (await findWorkspaceById(s.t.db, s.t.workspace.id))!;
});
const ctx = () => ({
  workspace,
  actor: { type: 'system' as const, id: null },
  now: s.clock.now(),
  linkBase: 'http://kairos.test',
  db: s.t.db,
  uow: openWritePath(s.t.db).uow,
});
const actions = (report: ImportReport) => report.rows.map((row) => [row.line, row.action]);
const customerCount = async () =>
  Number(
    (
      await s.t.db
        .selectFrom('customers')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('workspace_id', '=', s.t.workspace.id)
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('importing customers', () => {
  const file = [
    'Phone;First name;Last name;Email;uuid',
    '+49 151 1111 0001;Ada;Lovelace;ada@example.com;x',
    '0049 151 11110002;Alan;Turing;;',
    'not a phone;Bad;Row;;',
    '+4915111110001;Ada again;;;',
    '+4915111110003;;;nope;',
  ].join('\r\n');

  it('previews per row without writing, then imports, and a second run changes nothing', async () => {
    const before = await customerCount();
    const preview = await previewImport(ctx(), 'customers', file);
    expect(preview.ran).toBe(false);
    expect(preview.ignoredColumns).toEqual(['uuid']);
    expect(actions(preview)).toEqual([
      [2, 'create'],
      [3, 'create'],
      [4, 'error'],
      [5, 'error'],
      [6, 'error'],
    ]);
    expect(preview.rows[2]!.errors).toHaveProperty('phone');
    expect(preview.rows[3]!.errors.row).toEqual(['Repeats line 2.']);
    expect(preview.rows[4]!.errors).toHaveProperty('email');
    expect(await customerCount()).toBe(before);

    const run = await runImport(ctx(), 'customers', file);
    expect(run.counts).toEqual({ create: 2, update: 0, unchanged: 0, error: 3 });
    expect(await customerCount()).toBe(before + 2);
    const ada = (await s.t.call('GET', '/customers?phone=%2B4915111110001')).json().data[0];
    expect(ada).toMatchObject({ first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' });

    const again = await runImport(ctx(), 'customers', file);
    expect(again.counts).toEqual({ create: 0, update: 0, unchanged: 2, error: 3 });
    expect(await customerCount()).toBe(before + 2);
  });

  it('updates an existing customer with the file’s non-empty values, never clearing', async () => {
    const run = await runImport(
      ctx(),
      'customers',
      'phone,first_name,last_name,email\n+4915111110002,Alan M.,,alan@example.com\n',
    );
    expect(actions(run)).toEqual([[2, 'update']]);
    const alan = (await s.t.call('GET', '/customers?phone=%2B4915111110002')).json().data[0];
    expect(alan).toMatchObject({ first_name: 'Alan M.', last_name: 'Turing', email: 'alan@example.com' });
  });

  it('names a missing column and an unreadable file instead of importing', async () => {
    expect((await previewImport(ctx(), 'customers', 'name,email\nAda,a@b.c\n')).fileError).toBe(
      'The file has no column phone.',
    );
    expect((await runImport(ctx(), 'customers', 'phone\n"+49151\n')).fileError).toContain('not closed');
  });

  it('exports customers as CSV that imports back as unchanged', async () => {
    const csv = await customersCsv(s.t.db, s.t.workspace.id);
    expect(csv.split('\r\n')[0]).toBe('phone,first_name,last_name,email,uuid,created_at,erased_at');
    const back = await previewImport(ctx(), 'customers', csv);
    expect(back.rows.length).toBeGreaterThan(0);
    expect(back.rows.every((row) => row.action === 'unchanged')).toBe(true);
  });
});

describe('importing services and staffers', () => {
  it('creates and updates services by name, with prices in the currency and locations by name', async () => {
    const file = [
      'name,duration_minutes,price,locations,category',
      'Beard trim,20,"15,50",Main branch,Men',
      'haircut,45,95,,',
      'Ghost,30,10,Nowhere,',
      'Long,2000,10,,',
    ].join('\n');
    const run = await runImport(ctx(), 'services', file);
    expect(actions(run)).toEqual([
      [2, 'create'],
      [3, 'update'],
      [4, 'error'],
      [5, 'error'],
    ]);
    expect(run.rows[2]!.errors.locations).toEqual(['No location named "Nowhere".']);
    expect(run.rows[3]!.errors).toHaveProperty('duration_minutes');
    const services = (await s.t.call('GET', `/locations/${s.f.location.id}/services?per_page=100`)).json()
      .data;
    const beard = services.find((service: { name: string }) => service.name === 'Beard trim');
    expect(beard).toMatchObject({ price: 1550, duration: expect.anything() });
    const haircut = (await s.t.call('GET', `/services/${s.f.haircut.id}`)).json().data;
    expect(haircut).toMatchObject({ name: 'Haircut', price: 9500 });
    expect((await runImport(ctx(), 'services', file)).counts).toMatchObject({
      create: 0,
      update: 0,
      unchanged: 2,
    });
  });

  it('creates a staffer with services where they are offered, and matches them by name after', async () => {
    const file = 'first_name,last_name,services\nCleo,Meyer,Haircut | Beard trim\nDan,,Massage\n';
    const run = await runImport(ctx(), 'staffers', file);
    expect(actions(run)).toEqual([
      [2, 'create'],
      [3, 'error'],
    ]);
    expect(run.rows[1]!.errors.services).toEqual(['No service named "Massage".']);
    const again = await runImport(ctx(), 'staffers', file);
    expect(actions(again)).toEqual([
      [2, 'unchanged'],
      [3, 'error'],
    ]);
    const moved = await runImport(ctx(), 'staffers', 'first_name,last_name,services\nCleo,Meyer,Haircut\n');
    expect(actions(moved)).toEqual([[2, 'update']]);
  });
});

describe('importing future bookings', () => {
  it('books through the normal create: a taken time is that row’s error, and a re-run books nothing twice', async () => {
    const day = s.nextDay();
    const file = [
      'start,location,services,staffer,customer_phone,customer_first_name',
      `${day} 10:00,Main branch,Haircut,Anna,+4915122220001,Eva`,
      `${day} 10:00,Main branch,Haircut,Anna,+4915122220002,Finn`,
      `${day} 12:00,main branch,Haircut + Color,ben,+4915122220003,Gil`,
      `2020-01-01 10:00,Main branch,Haircut,Anna,+4915122220004,Past`,
      `${day} 13:00,Main branch,Haircut,,+4915122220005,Nobody`,
    ].join('\n');
    const preview = await previewImport(ctx(), 'bookings', file);
    expect(actions(preview)).toEqual([
      [2, 'create'],
      [3, 'create'],
      [4, 'create'],
      [5, 'error'],
      [6, 'create'],
    ]);
    expect(preview.rows[3]!.errors.start).toEqual(['Only future bookings are imported.']);

    const run = await runImport(ctx(), 'bookings', file);
    expect(actions(run)).toEqual([
      [2, 'create'],
      [3, 'error'],
      [4, 'create'],
      [5, 'error'],
      [6, 'error'],
    ]);
    // Anna is taken at 10:00 by line 2: the database refused line 3.
    expect(Object.keys(run.rows[1]!.errors)).toEqual(['start']);
    // This workspace requires a staffer: the create's own 422.
    expect(run.rows[4]!.errors).toHaveProperty('staffer');

    const booked = (
      await s.t.call('GET', `/bookings?reserved_on_from=${day}T00:00:00Z&reserved_on_to=${day}T23:59:59Z`)
    ).json().data;
    expect(booked.map((b: { start_time: string; source: string }) => [b.start_time, b.source])).toEqual([
      [`${day}T08:00:00Z`, 'import'],
      [`${day}T10:00:00Z`, 'import'],
    ]);
    expect(booked[1].ordered_services.map((line: { name: string }) => line.name)).toEqual([
      'Haircut',
      'Color',
    ]);

    const again = await runImport(ctx(), 'bookings', file);
    expect(again.counts.create).toBe(0);
    expect(again.counts.unchanged).toBe(2);

    // The export's first columns are the import's: its rows come back as already there.
    const csv = await bookingsCsv(s.t.db, s.t.workspace, {
      reserved_on_from: new Date(`${day}T00:00:00Z`),
      reserved_on_to: new Date(`${day}T23:59:59Z`),
    });
    expect(csv.split('\r\n')[1]).toMatch(
      new RegExp(`^${day} 10:00,Main branch,Haircut,Anna Stylist,\\+4915122220001,Eva,`),
    );
    expect((await previewImport(ctx(), 'bookings', csv)).counts).toMatchObject({ unchanged: 2, error: 0 });
  });

  it.each([
    ['2026-03-29 02:30', 'Europe/Berlin', undefined],
    ['2026-03-29 03:00', 'Europe/Berlin', '2026-03-29T01:00:00.000Z'],
    ['2026-10-25 02:30', 'Europe/Berlin', '2026-10-25T00:30:00.000Z'],
    ['2026-12-01 10:00', 'Asia/Kathmandu', '2026-12-01T04:15:00.000Z'],
    ['2026-12-01T10:00:00+01:00', 'Asia/Kathmandu', '2026-12-01T09:00:00.000Z'],
    ['2026-12-01 24:00', 'Europe/Berlin', undefined],
    ['2026-02-30 10:00', 'Europe/Berlin', undefined],
    ['tomorrow', 'Europe/Berlin', undefined],
  ])('reads start %s at %s as %s', (text, zone, expected) => {
    const start = readStart(text, zone);
    expect(start === undefined ? undefined : new Date(start).toISOString()).toBe(expected);
  });
});
