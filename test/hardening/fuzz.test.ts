import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Json, type Operation, operationsOf } from '../contract/openapi-kit.js';
import { API, buildTestApp, type TestApp } from '../helpers/build-test-app.js';
import { FixedClock } from '../helpers/clock.js';
import { BAD_VALUES, badValue, deepJson, fieldPaths, goodValue, setPath } from './fuzz-arbitraries.js';

/**
 * Schema-driven fuzzing of every operation in our own OpenAPI document. Each
 * request mixes values that pass a field's schema with values built to break it (types, limits,
 * NUL, unpaired surrogates, deep nesting, huge strings, odd dates) in the body, the query and the
 * path, as JSON, as a form, or as text no schema expects. Every answer must be below 500 and, when
 * it is an error, in our shape: `message`, `code`, and on a 422 a non-empty `errors`.
 *
 * FUZZ_RUNS requests per operation: 8 by default (CI), more with `npm run fuzz` (200).
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 8);
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);

let t: TestApp;
let doc: Json;
const ids: Record<string, string> = {};
const counts = { requests: 0, byStatus: new Map<number, number>() };

beforeAll(async () => {
  t = await buildTestApp({
    clock: new FixedClock('2026-09-01T08:00:00Z'),
    config: { webhooksAllowPrivate: true },
  });
  doc = (await t.app.inject({ method: 'GET', url: `${API}/openapi.json` })).json();
  // Real resources, so that fuzzed requests reach handlers and the store, not only 404s.
  const post = async (path: string, body: unknown) => (await t.call('POST', path, body)).json().data;
  const week = { mon: [{ from: '09:00', to: '17:00' }], wed: [{ from: '09:00', to: '17:00' }] };
  ids.locationUuid = (
    await post('/locations', { name: 'Fuzz', timezone: 'Europe/Berlin', opening_hours: week })
  ).uuid;
  ids.serviceUuid = (
    await post('/services', { name: 'Cut', duration_minutes: 60, location_uuids: [ids.locationUuid] })
  ).uuid;
  const services = [{ location_uuid: ids.locationUuid, service_uuids: [ids.serviceUuid] }];
  ids.stafferUuid = (await post('/staffers', { first_name: 'Fuzz', services })).uuid;
  await t.call('PUT', `/staffers/${ids.stafferUuid}/schedules/${ids.locationUuid}`, { weekly: week });
  ids.accountUuid = (await post(`/locations/${ids.locationUuid}/accounts`, { name: 'Till' })).uuid;
  ids.statusUuid = (await post('/bookings/statuses', { name: 'Fuzzed' })).uuid;
  const booking = await post('/bookings', {
    reserved_on: '2026-09-02T08:00:00Z',
    location_uuid: ids.locationUuid,
    service_uuid: ids.serviceUuid,
    staffer_uuid: ids.stafferUuid,
    customer_phone: '+4915112345678',
  });
  ids.bookingUuid = booking.uuid;
  ids.customerUuid = booking.customer.uuid;
  ids.webhookUuid = (await post('/webhooks', { url: 'http://127.0.0.1:9/hook' })).uuid;
  ids.deliveryUuid = (await t.call('POST', `/webhooks/${ids.webhookUuid}/test`)).json().data.uuid;
  for (const [name, value] of Object.entries(ids)) if (!value) throw new Error(`fixture ${name} missing`);
}, 180_000);

afterAll(async () => {
  const statuses = Object.fromEntries([...counts.byStatus].sort(([a], [b]) => a - b));
  console.log(
    `fuzz: ${counts.requests} requests (${RUNS} per operation), by status ${JSON.stringify(statuses)}`,
  );
  await t?.close();
});

interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
}

const BAD_PATH_PARTS = [
  'not-a-uuid',
  '00000000-0000-0000-0000-000000000000',
  'x'.repeat(300),
  '%00',
  '%E0%A4%A',
  '..%2F..',
  '%F0%9F%98%80',
];

function requestFor(operation: Operation): fc.Arbitrary<FuzzRequest> {
  const parameters: Json[] = operation.spec.parameters ?? [];
  const query = parameters.filter((p) => p.in === 'query');
  const bodySchema = operation.spec.requestBody?.content?.['application/json']?.schema;
  const uuids: Record<string, string> = {
    location_uuid: ids.locationUuid!,
    service_uuid: ids.serviceUuid!,
    staffer_uuid: ids.stafferUuid!,
    customer_uuid: ids.customerUuid!,
    status_uuid: ids.statusUuid!,
    account_uuid: ids.accountUuid!,
  };

  const path = fc.record(
    Object.fromEntries(
      parameters
        .filter((p) => p.in === 'path')
        .map((p) => [
          p.name,
          fc.oneof(
            { weight: 6, arbitrary: fc.constant(encodeURIComponent(ids[p.name] ?? 'x')) },
            { weight: 1, arbitrary: fc.constantFrom(...BAD_PATH_PARTS) },
          ),
        ]),
    ),
  );
  const queryString = fc
    .tuple(
      ...query.map((p: Json) =>
        fc.oneof(
          { weight: 2, arbitrary: fc.constant(undefined) },
          { weight: 4, arbitrary: goodValue(p.schema, p.name, uuids) },
          { weight: 2, arbitrary: badValue(p.schema) },
        ),
      ),
    )
    .map((values) => {
      const search = new URLSearchParams();
      values.forEach((value, i) => {
        if (value !== undefined)
          search.append(query[i].name, typeof value === 'object' ? JSON.stringify(value) : String(value));
      });
      return search.toString();
    });
  const rawQuery = fc.constantFrom(
    '',
    '',
    '',
    'page=1e20',
    'per_page=%00',
    'page=%E0%A4%A',
    'a[b][c]=1',
    `service_uuid=${ids.serviceUuid}&range_start=0000-01-01`,
  );

  const fields = bodySchema ? fieldPaths(bodySchema) : [];
  const body: fc.Arbitrary<{ contentType: string; text: string } | undefined> = bodySchema
    ? fc
        .tuple(
          goodValue(bodySchema, '', uuids),
          fc.array(
            fc.tuple(
              fc.constantFrom(...(fields.length > 0 ? fields : [{ path: ['extra'], schema: {} }])),
              fc.boolean(),
            ),
            { maxLength: 3 },
          ),
          fc.constantFrom('json', 'json', 'json', 'json', 'form', 'deep', 'replace', 'text'),
          fc.integer({ min: 33, max: 6000 }),
          fc.constantFrom(...BAD_VALUES),
        )
        .chain(([base, mutations, encoding, depth, replacement]) =>
          fc.tuple(...mutations.map(([field]) => badValue(field.schema))).map((bad) => {
            let value: Json = base;
            mutations.forEach(([field, drop], i) => {
              value =
                drop && i === 0 ? setPath(value, field.path, undefined) : setPath(value, field.path, bad[i]);
            });
            switch (encoding) {
              case 'form': {
                const flat = Object.entries(value ?? {}).filter(
                  ([, v]) => typeof v !== 'object' || v === null,
                );
                return {
                  contentType: 'application/x-www-form-urlencoded',
                  text: new URLSearchParams(
                    flat.map(([k, v]) => [k, String(v)] as [string, string]),
                  ).toString(),
                };
              }
              case 'deep':
                return {
                  contentType: 'application/json',
                  text: deepJson(value, fields[0]?.path[0] ?? 'extra', depth),
                };
              case 'replace':
                return { contentType: 'application/json', text: JSON.stringify(replacement) ?? 'null' };
              case 'text':
                return { contentType: 'text/plain', text: 'hello' };
              default:
                return { contentType: 'application/json', text: JSON.stringify(value) ?? 'null' };
            }
          }),
        )
    : fc.constant(undefined);

  const idempotencyKey = fc.option(
    fc.string({ minLength: 1, maxLength: 40 }).map((key) => `fuzz-${key}`),
    { nil: undefined },
  );
  return fc
    .tuple(path, queryString, rawQuery, body, idempotencyKey)
    .map(([pathValues, qs, raw, payload, key]) => {
      let url = `${API}${operation.path.replace(/\{(\w+)\}/g, (_, name: string) => (pathValues as Record<string, string>)[name]!)}`;
      const search = [qs, raw].filter(Boolean).join('&');
      if (search) url += `?${search}`;
      return {
        method: operation.method,
        url,
        headers: {
          ...t.headers,
          ...(payload ? { 'content-type': payload.contentType } : {}),
          ...(key && operation.method !== 'GET' ? { 'idempotency-key': encodeURIComponent(key) } : {}),
        },
        ...(payload ? { payload: payload.text } : {}),
      };
    });
}

function checkAnswer(request: FuzzRequest, response: { statusCode: number; body: string }): void {
  const where = `${request.method} ${request.url.slice(0, 200)} ${request.payload?.slice(0, 200) ?? ''} -> ${response.statusCode} ${response.body.slice(0, 300)}`;
  expect(response.statusCode, where).toBeLessThan(500);
  if (response.statusCode < 400) return;
  const body = JSON.parse(response.body);
  expect(typeof body.message, where).toBe('string');
  expect(typeof body.code, where).toBe('string');
  expect(body.code, where).not.toMatch(/^FST_/);
  if (response.statusCode === 422) expect(Object.keys(body.errors ?? {}).length, where).toBeGreaterThan(0);
}

describe('schema-driven fuzzing of every operation', () => {
  it('every numeric field of a request documents a maximum', () => {
    const unbounded: string[] = [];
    const walk = (schema: Json, where: string) => {
      if (!schema || typeof schema !== 'object') return;
      const type = Array.isArray(schema.type) ? schema.type : [schema.type];
      if ((type.includes('integer') || type.includes('number')) && typeof schema.maximum !== 'number')
        unbounded.push(where);
      for (const [key, property] of Object.entries<Json>(schema.properties ?? {}))
        walk(property, `${where}.${key}`);
      if (schema.items) walk(schema.items, `${where}[]`);
      for (const branch of schema.anyOf ?? []) walk(branch, where);
    };
    for (const operation of operationsOf(doc)) {
      for (const p of operation.spec.parameters ?? []) walk(p.schema, `${operation.key} ${p.name}`);
      walk(operation.spec.requestBody?.content?.['application/json']?.schema, `${operation.key} body`);
    }
    expect(unbounded).toEqual([]);
  });

  it('answers every fuzzed request below 500, in our error shape', { timeout: 600_000 }, async () => {
    const order = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
    // Deletions last, so the fixtures live while the other operations are fuzzed.
    const operations = operationsOf(doc).sort((a, b) => order.indexOf(a.method) - order.indexOf(b.method));
    for (const operation of operations) {
      await fc.assert(
        fc.asyncProperty(requestFor(operation), async (request) => {
          const response = await t.app.inject({ ...request, method: request.method as 'GET' });
          counts.requests += 1;
          counts.byStatus.set(response.statusCode, (counts.byStatus.get(response.statusCode) ?? 0) + 1);
          checkAnswer(request, response);
        }),
        { numRuns: RUNS, ...(SEED === undefined ? {} : { seed: SEED }) },
      );
    }
    expect(counts.byStatus.get(500) ?? 0).toBe(0);
  });
});
