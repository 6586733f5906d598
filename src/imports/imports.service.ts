import { recordAccess } from '../audit/audit.service.js';
import { createBooking } from '../bookings/bookings.service.js';
import { findOrCreateCustomer, updateCustomerDetails } from '../customers/customers.service.js';
import { AppError, FieldErrorBag, notFound, ruleIssue } from '../errors.js';
import { CsvError, parseCsv } from '../platform/csv.js';
import type { Db } from '../platform/db/client.js';
import type { UnitOfWork } from '../platform/db/unit-of-work.js';
import { toUtcIso } from '../platform/time/zone.js';
import type { ServiceCreateBody, ServiceUpdateBody } from '../services/services.schemas.js';
import { createService, updateService } from '../services/services.service.js';
import {
  assignmentsOfStaffers,
  createStaffer,
  listOfferedServicePairs,
  updateStaffer,
} from '../staffers/staffers.service.js';
import type { RequestContext } from '../workspaces/request-context.js';
import {
  checkColumns,
  customerChanges,
  type ImportKind,
  isImportKind,
  MAX_IMPORT_ROWS,
  nameKey,
  type RowErrors,
  readBookingRow,
  readCustomerRow,
  readServiceRow,
  readStafferRow,
  rowValues,
  stafferKey,
} from './import-rows.rules.js';
import {
  bookingExists,
  claimUpload,
  customersByPhone,
  findUpload,
  type ImportLookups,
  importLookups,
  insertUpload,
  saveUploadResult,
} from './imports.repository.js';

export type RowAction = 'create' | 'update' | 'unchanged' | 'error';

export interface ImportRowResult {
  line: number;
  action: RowAction;
  /** What the row is about, as a person recognises it ("+4915… Anna Schulz", "Cut"). */
  label: string;
  errors: RowErrors;
}

export interface ImportReport {
  kind: ImportKind;
  /** False for a preview: nothing was written. */
  ran: boolean;
  /** A problem with the whole file (unreadable, required columns missing, too many rows). */
  fileError?: string;
  ignoredColumns: string[];
  rows: ImportRowResult[];
  counts: Record<RowAction, number>;
}

type ImportContext = RequestContext & { db: Db; uow: UnitOfWork };
interface PlannedRow {
  result: ImportRowResult;
  apply?: (ctx: ImportContext) => Promise<unknown>;
}

/**
 * What importing `text` as `kind` would do, row by row, writing nothing (the panel's preview,
 * `kairos import --dry-run`). A booking row's time is checked when it runs, by the normal create.
 */
export async function previewImport(
  ctx: RequestContext & { db: Db },
  kind: ImportKind,
  text: string,
): Promise<ImportReport> {
  const { report } = await plan(ctx, kind, text);
  return report;
}

/**
 * Imports `text`: each row that creates or updates goes through the feature's own service, in
 * its own unit of work, so one refused row (a taken time, a name too long) leaves the others
 * done. Rows that match what the workspace has are left alone, so importing a file twice
 * changes nothing the second time.
 */
export async function runImport(ctx: ImportContext, kind: ImportKind, text: string): Promise<ImportReport> {
  const { report, planned } = await plan(ctx, kind, text);
  if (report.fileError !== undefined) return report;
  for (const row of planned) {
    if (!row.apply) continue;
    try {
      await row.apply(ctx);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      row.result.action = 'error';
      row.result.errors =
        error.errors && Object.keys(error.errors).length > 0
          ? columnErrors(error.errors)
          : { [error.statusCode === 409 ? 'start' : 'row']: [error.message] };
    }
  }
  const done = finish({ ...report, ran: true }, planned);
  await recordAccess(ctx.uow, ctx.workspace.id, ctx.actor, 'data.imported', null, {
    kind,
    counts: done.counts,
  });
  return done;
}

/** The API's field names in a service's errors, as the file's columns name them. */
const COLUMN_OF_FIELD: Record<string, string> = {
  reserved_on: 'start',
  staffer_uuid: 'staffer',
  service_uuid: 'services',
  service_uuids: 'services',
  location_uuid: 'location',
  location_uuids: 'locations',
};

function columnErrors(errors: RowErrors): RowErrors {
  const out: RowErrors = {};
  for (const [field, messages] of Object.entries(errors)) {
    const column = COLUMN_OF_FIELD[field.split('.')[0]!] ?? field;
    out[column] = [...(out[column] ?? []), ...messages];
  }
  return out;
}

function finish(report: ImportReport, planned: PlannedRow[]): ImportReport {
  const counts: Record<RowAction, number> = { create: 0, update: 0, unchanged: 0, error: 0 };
  for (const row of planned) counts[row.result.action] += 1;
  return { ...report, rows: planned.map((row) => row.result), counts };
}

async function plan(
  ctx: RequestContext & { db: Db },
  kind: ImportKind,
  text: string,
): Promise<{ report: ImportReport; planned: PlannedRow[] }> {
  const empty: ImportReport = {
    kind,
    ran: false,
    ignoredColumns: [],
    rows: [],
    counts: { create: 0, update: 0, unchanged: 0, error: 0 },
  };
  let parsed: ReturnType<typeof parseCsv>;
  try {
    parsed = parseCsv(text);
  } catch (error) {
    if (error instanceof CsvError) return { report: { ...empty, fileError: error.message }, planned: [] };
    throw error;
  }
  const { missing, ignored } = checkColumns(kind, parsed.header);
  if (missing.length > 0) {
    return {
      report: {
        ...empty,
        ignoredColumns: ignored,
        fileError: `The file has no column ${missing.join(', ')}.`,
      },
      planned: [],
    };
  }
  if (parsed.rows.length > MAX_IMPORT_ROWS) {
    return {
      report: {
        ...empty,
        fileError: `The file has ${parsed.rows.length} rows; import at most ${MAX_IMPORT_ROWS} at a time.`,
      },
      planned: [],
    };
  }
  const rows = parsed.rows.map((row) => ({ line: row.line, values: rowValues(row.values) }));
  const lookups = await importLookups(ctx.db, ctx.workspace.id);
  const planners = {
    customers: planCustomers,
    services: planServices,
    staffers: planStaffers,
    bookings: planBookings,
  };
  const planned = await planners[kind](ctx, rows, lookups);
  return { report: finish({ ...empty, ignoredColumns: ignored }, planned), planned };
}

type Rows = { line: number; values: Record<string, string> }[];
const failed = (line: number, label: string, errors: RowErrors): PlannedRow => ({
  result: { line, action: 'error', label, errors },
});
/** The second row of a file that names the same thing as an earlier one. */
const repeated = (line: number, label: string, first: number) =>
  failed(line, label, { row: [`Repeats line ${first}.`] });

async function planCustomers(ctx: RequestContext & { db: Db }, rows: Rows): Promise<PlannedRow[]> {
  const read = rows.map((row) => ({ ...row, ...readCustomerRow(row.values) }));
  const phones = read.flatMap((row) => (row.plan ? [row.plan.phone] : []));
  const existing = new Map(
    (await customersByPhone(ctx.db, ctx.workspace.id, phones)).map((c) => [c.phone, c]),
  );
  const seen = new Map<string, number>();
  return read.map(({ line, values, plan: customer, errors }) => {
    const label = `${values.phone ?? ''} ${values.first_name ?? ''} ${values.last_name ?? ''}`.trim();
    if (!customer) return failed(line, label, errors);
    const first = seen.get(customer.phone);
    if (first !== undefined) return repeated(line, label, first);
    seen.set(customer.phone, line);
    const found = existing.get(customer.phone);
    if (!found) {
      return {
        result: { line, action: 'create', label, errors: {} },
        apply: (run) => findOrCreateCustomer(run.uow, run.workspace.id, customer),
      };
    }
    const changes = customerChanges(found, customer);
    if (Object.keys(changes).length === 0)
      return { result: { line, action: 'unchanged', label, errors: {} } };
    return {
      result: { line, action: 'update', label, errors: {} },
      apply: (run) => updateCustomerDetails(run.uow, run.workspace.id, found.id, changes, run.now),
    };
  });
}

/** Location ids of the given names, or the names no live location has. */
function locationIdsOf(lookups: ImportLookups, names: string[]): { ids: string[]; unknown: string[] } {
  const byName = new Map(lookups.locations.map((l) => [nameKey(l.name), l.id]));
  const ids: string[] = [];
  const unknown: string[] = [];
  for (const name of names) {
    const id = byName.get(nameKey(name));
    if (id === undefined) unknown.push(name);
    else ids.push(id);
  }
  return { ids, unknown };
}

async function planServices(ctx: RequestContext & { db: Db }, rows: Rows, lookups: ImportLookups) {
  const byName = new Map(lookups.services.map((s) => [nameKey(s.name), s]));
  const pairs = await listOfferedServicePairs(ctx.db, ctx.workspace.id);
  const locationsOf = (serviceId: string) =>
    pairs
      .filter((pair) => pair.service_id === serviceId)
      .map((pair) => pair.location_id)
      .sort();
  const seen = new Map<string, number>();
  return rows.map(({ line, values }): PlannedRow => {
    const label = values.name ?? '';
    const { plan: service, errors } = readServiceRow(values, ctx.workspace.currency);
    if (!service) return failed(line, label, errors);
    const locations = service.locations ? locationIdsOf(lookups, service.locations) : undefined;
    if (locations && locations.unknown.length > 0) {
      return failed(line, label, {
        locations: [`No location named ${locations.unknown.map((n) => `"${n}"`).join(', ')}.`],
      });
    }
    const key = nameKey(service.name);
    const first = seen.get(key);
    if (first !== undefined) return repeated(line, label, first);
    seen.set(key, line);
    const body: ServiceCreateBody = {
      name: service.name,
      duration_minutes: service.duration_minutes,
      ...(service.price !== undefined ? { price: service.price } : {}),
      ...(service.description !== undefined ? { description: service.description } : {}),
      ...(service.category !== undefined ? { category: service.category } : {}),
      ...(service.capacity !== undefined ? { capacity: service.capacity } : {}),
      ...(locations ? { location_uuids: locations.ids } : {}),
    };
    const found = byName.get(key);
    if (!found) {
      return {
        result: { line, action: 'create', label, errors: {} },
        apply: (run) => createService(run.uow, run.workspace.id, body),
      };
    }
    const changes: ServiceUpdateBody = {};
    if (body.duration_minutes !== found.duration_minutes) changes.duration_minutes = body.duration_minutes;
    if (body.price !== undefined && body.price !== found.price) changes.price = body.price;
    if (body.description !== undefined && body.description !== found.description)
      changes.description = body.description;
    if (body.category !== undefined && body.category !== found.category) changes.category = body.category;
    if (body.capacity !== undefined && body.capacity !== found.capacity) changes.capacity = body.capacity;
    if (locations && locations.ids.slice().sort().join() !== locationsOf(found.id).join()) {
      changes.location_uuids = locations.ids;
    }
    if (Object.keys(changes).length === 0)
      return { result: { line, action: 'unchanged', label, errors: {} } };
    return {
      result: { line, action: 'update', label, errors: {} },
      apply: (run) => updateService(run.uow, run.workspace.id, found.id, changes),
    };
  });
}

async function planStaffers(ctx: RequestContext & { db: Db }, rows: Rows, lookups: ImportLookups) {
  // Every staffer's current services in one read, for the rows that match an existing staffer.
  const [pairs, currentAssignments] = await Promise.all([
    listOfferedServicePairs(ctx.db, ctx.workspace.id),
    assignmentsOfStaffers(
      ctx.db,
      ctx.workspace.id,
      lookups.staffers.map((s) => s.id),
    ),
  ]);
  const byEmail = new Map(
    lookups.staffers.filter((s) => s.email).map((s) => [s.email!.toLowerCase(), s] as const),
  );
  const byName = new Map(lookups.staffers.map((s) => [nameKey(`${s.first_name} ${s.last_name}`), s]));
  const serviceIds = new Map(lookups.services.map((s) => [nameKey(s.name), s.id]));
  const seen = new Map<string, number>();
  const planned: PlannedRow[] = [];
  for (const { line, values } of rows) {
    const label = `${values.first_name ?? ''} ${values.last_name ?? ''}`.trim();
    const { plan: staffer, errors } = readStafferRow(values);
    if (!staffer) {
      planned.push(failed(line, label, errors));
      continue;
    }
    // Which services where: the named services at the named locations, or wherever they are offered.
    let assignments: { location_uuid: string; service_uuids: string[] }[] | undefined;
    if (staffer.services) {
      const unknown = staffer.services.filter((name) => !serviceIds.has(nameKey(name)));
      if (unknown.length > 0) {
        planned.push(
          failed(line, label, { services: [`No service named ${unknown.map((n) => `"${n}"`).join(', ')}.`] }),
        );
        continue;
      }
      const wanted = staffer.services.map((name) => serviceIds.get(nameKey(name))!);
      const locations = staffer.locations ? locationIdsOf(lookups, staffer.locations) : undefined;
      if (locations && locations.unknown.length > 0) {
        planned.push(
          failed(line, label, {
            locations: [`No location named ${locations.unknown.map((n) => `"${n}"`).join(', ')}.`],
          }),
        );
        continue;
      }
      const where = locations?.ids ?? [...new Set(pairs.map((pair) => pair.location_id))];
      assignments = where
        .map((locationId) => ({
          location_uuid: locationId,
          service_uuids: wanted.filter((serviceId) =>
            pairs.some((pair) => pair.location_id === locationId && pair.service_id === serviceId),
          ),
        }))
        .filter((assignment) => assignment.service_uuids.length > 0);
      const placed = new Set(assignments.flatMap((a) => a.service_uuids));
      const nowhere = staffer.services.filter((name) => !placed.has(serviceIds.get(nameKey(name))!));
      if (nowhere.length > 0) {
        planned.push(
          failed(line, label, {
            services: [`${nowhere.join(', ')}: not offered at the staffer's locations.`],
          }),
        );
        continue;
      }
    }
    const key = stafferKey(staffer);
    const first = seen.get(key);
    if (first !== undefined) {
      planned.push(repeated(line, label, first));
      continue;
    }
    seen.set(key, line);
    const found =
      (staffer.email !== '' ? byEmail.get(staffer.email.toLowerCase()) : undefined) ??
      byName.get(nameKey(`${staffer.first_name} ${staffer.last_name}`));
    const body = {
      first_name: staffer.first_name,
      last_name: staffer.last_name,
      ...(staffer.position !== undefined ? { position: staffer.position } : {}),
      ...(assignments ? { services: assignments } : {}),
    };
    if (!found) {
      planned.push({
        result: { line, action: 'create', label, errors: {} },
        apply: (run) => createStaffer(run.uow, run.workspace.id, body),
      });
      continue;
    }
    const sameAssignments =
      assignments === undefined ||
      assignmentKey(assignments) ===
        assignmentKey(
          (currentAssignments.get(found.id) ?? []).map((a) => ({
            location_uuid: a.locationId,
            service_uuids: a.serviceIds,
          })),
        );
    const same =
      found.first_name === body.first_name &&
      found.last_name === body.last_name &&
      (body.position === undefined || body.position === found.position) &&
      sameAssignments;
    planned.push(
      same
        ? { result: { line, action: 'unchanged', label, errors: {} } }
        : {
            result: { line, action: 'update', label, errors: {} },
            apply: (run) => updateStaffer(run.uow, run.workspace.id, found.id, body),
          },
    );
  }
  return planned;
}

const assignmentKey = (assignments: { location_uuid: string; service_uuids: string[] }[]) =>
  assignments
    .map((a) => `${a.location_uuid}:${[...a.service_uuids].sort().join(',')}`)
    .sort()
    .join(';');

async function planBookings(ctx: RequestContext & { db: Db }, rows: Rows, lookups: ImportLookups) {
  const locations = new Map(lookups.locations.map((l) => [nameKey(l.name), l]));
  const serviceIds = new Map(lookups.services.map((s) => [nameKey(s.name), s.id]));
  const staffers = lookups.staffers;
  const stafferOf = (text: string) => {
    const key = nameKey(text);
    const matches = staffers.filter(
      (s) =>
        (s.email ?? '').toLowerCase() === key ||
        nameKey(`${s.first_name} ${s.last_name}`) === key ||
        nameKey(s.first_name) === key,
    );
    return matches.length === 1 ? matches[0]!.id : undefined;
  };
  const seen = new Map<string, number>();
  const planned: PlannedRow[] = [];
  for (const { line, values } of rows) {
    const label = `${values.start ?? ''} ${values.services ?? ''} ${values.customer_phone ?? ''}`.trim();
    const { plan: booking, errors } = readBookingRow(
      values,
      (name) => locations.get(nameKey(name))?.timezone,
      ctx.now,
    );
    if (!booking) {
      planned.push(failed(line, label, errors));
      continue;
    }
    const unknown = booking.services.filter((name) => !serviceIds.has(nameKey(name)));
    const stafferId = booking.staffer === '' ? undefined : stafferOf(booking.staffer);
    const rowErrors: RowErrors = {};
    if (unknown.length > 0)
      rowErrors.services = [`No service named ${unknown.map((n) => `"${n}"`).join(', ')}.`];
    if (booking.staffer !== '' && stafferId === undefined) {
      rowErrors.staffer = [`No one staffer named "${booking.staffer}" (give the full name or email).`];
    }
    if (Object.keys(rowErrors).length > 0) {
      planned.push(failed(line, label, rowErrors));
      continue;
    }
    const location = locations.get(nameKey(booking.location))!;
    const key = `${location.id}|${booking.start}|${booking.customer.phone}`;
    const first = seen.get(key);
    if (first !== undefined) {
      planned.push(repeated(line, label, first));
      continue;
    }
    seen.set(key, line);
    if (
      await bookingExists(ctx.db, ctx.workspace.id, {
        locationId: location.id,
        start: new Date(booking.start),
        phone: booking.customer.phone,
      })
    ) {
      planned.push({ result: { line, action: 'unchanged', label, errors: {} } });
      continue;
    }
    const ids = booking.services.map((name) => serviceIds.get(nameKey(name))!);
    planned.push({
      result: { line, action: 'create', label, errors: {} },
      apply: (run) =>
        createBooking(
          { ...run, db: run.uow.db },
          {
            reserved_on: toUtcIso(booking.start),
            location_uuid: location.id,
            service_uuid: ids[0],
            ...(ids.length > 1 ? { service_uuids: ids } : {}),
            ...(stafferId !== undefined ? { staffer_uuid: stafferId } : {}),
            customer_phone: booking.customer.phone,
            customer_first_name: booking.customer.first_name,
            customer_last_name: booking.customer.last_name,
            customer_email: booking.customer.email,
            booking_comment: booking.booking_comment,
            source: 'import',
          },
        ),
    });
  }
  return planned;
}

/** The largest file the panel takes: ~20,000 customer rows. */
export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;

/**
 * Keeps a file posted in the panel for its preview and its one run; a 422 for an unknown kind,
 * an empty or too large file.
 */
export async function storeUpload(
  ctx: ImportContext,
  values: { kind: unknown; csv: unknown; fileName: unknown },
): Promise<string> {
  const errors = new FieldErrorBag();
  if (!isImportKind(values.kind)) errors.add('kind', 'Choose what the file holds.', ruleIssue('import_kind'));
  const csv = typeof values.csv === 'string' ? values.csv : '';
  if (csv.trim() === '')
    errors.add('csv', 'Choose a file or paste its text.', ruleIssue('import_csv_missing'));
  else if (Buffer.byteLength(csv) > MAX_UPLOAD_BYTES)
    errors.add('csv', 'The file is larger than 5 MB: split it.', ruleIssue('import_csv_too_large'));
  errors.throwIfAny();
  return ctx.uow.run(ctx.workspace.id, (tx) =>
    insertUpload(tx, {
      workspaceId: ctx.workspace.id,
      kind: values.kind as ImportKind,
      fileName: typeof values.fileName === 'string' ? values.fileName.slice(0, 200) : '',
      content: csv,
      createdBy: ctx.actor.type === 'user' ? ctx.actor.id : null,
    }),
  );
}

/** An upload's page: its preview, or once run, what the run did. */
export async function uploadReport(ctx: RequestContext & { db: Db }, uploadId: string) {
  const upload = await findUpload(ctx.db, ctx.workspace.id, uploadId);
  if (!upload) throw notFound('Import');
  let report: ImportReport;
  if (upload.result !== null) report = upload.result as unknown as ImportReport;
  else if (upload.ran_at !== null) {
    report = {
      kind: upload.kind,
      ran: true,
      ignoredColumns: [],
      rows: [],
      counts: { create: 0, update: 0, unchanged: 0, error: 0 },
      fileError: 'This import has started and not finished yet: reload the page in a moment.',
    };
  } else report = await previewImport(ctx, upload.kind, upload.content);
  return { id: upload.id, fileName: upload.file_name, report };
}

/** Runs an upload once: a second submit (another tab, a double click) finds it claimed. */
export async function runUpload(ctx: ImportContext, uploadId: string): Promise<void> {
  const upload = await findUpload(ctx.db, ctx.workspace.id, uploadId);
  if (!upload) throw notFound('Import');
  const claimed = await ctx.uow.run(ctx.workspace.id, (tx) =>
    claimUpload(tx, ctx.workspace.id, upload.id, new Date(ctx.now)),
  );
  if (!claimed) return;
  const report = await runImport(ctx, upload.kind, upload.content);
  await ctx.uow.run(ctx.workspace.id, (tx) => saveUploadResult(tx, ctx.workspace.id, upload.id, report));
}
