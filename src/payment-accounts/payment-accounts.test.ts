import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createOtherWorkspace, type TestApp } from '../../test/helpers/build-test-app.js';
import { createLocation, createPaymentAccount } from '../../test/helpers/factories.js';

let t: TestApp;
let locationA: string;
let locationB: string;
let archivedLocation: string;
let accountAtB: string;
let otherLocation: string;
let otherAccount: string;

beforeAll(async () => {
  t = await buildTestApp();
  const ws = t.workspace.id;
  locationA = (await createLocation(t.db, ws, { name: 'A' })).id;
  locationB = (await createLocation(t.db, ws, { name: 'B' })).id;
  archivedLocation = (await createLocation(t.db, ws, { name: 'Gone' })).id;
  accountAtB = (await createPaymentAccount(t.db, ws, locationB, { name: 'B till' })).id;
  await t.db
    .updateTable('locations')
    .set({ archived_at: new Date() })
    .where('id', '=', archivedLocation)
    .execute();
  const other = await createOtherWorkspace(t.db);
  otherLocation = (await createLocation(t.db, other.workspace.id)).id;
  otherAccount = (await createPaymentAccount(t.db, other.workspace.id, otherLocation, { name: 'Theirs' })).id;
});
afterAll(() => t.close());

const accountsPath = (location: string) => `/locations/${location}/accounts`;

async function create(location: string, body: Record<string, unknown>) {
  const response = await t.call('POST', accountsPath(location), body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data as { uuid: string; name: string; type: string };
}

async function accountCount(): Promise<number> {
  const row = await t.db
    .selectFrom('payment_accounts')
    .select(t.db.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function expectSame404(foreignPath: string, unknownPath: string, method = 'GET', body?: unknown) {
  const foreign = await t.call(method, foreignPath, body);
  const unknown = await t.call(method, unknownPath, body);
  expect(foreign.statusCode).toBe(404);
  expect(unknown.statusCode).toBe(404);
  expect(foreign.json()).toEqual(unknown.json());
  expect(foreign.json().code).toBe('not_found');
}

describe('payment accounts of a location', () => {
  it('creates accounts (201) and lists them as a plain data array in creation order', async () => {
    const fresh = await buildTestApp({ database: t.database });
    try {
      const here = (await createLocation(fresh.db, fresh.workspace.id)).id;
      const empty = await fresh.call('GET', accountsPath(here));
      expect(empty.statusCode).toBe(200);
      expect(empty.json()).toEqual({ data: [] });

      const card = await fresh.call('POST', accountsPath(here), {
        name: ' Card terminal ',
        type: 'card',
        x: 1,
      });
      expect(card.statusCode).toBe(201);
      expect(card.json()).toEqual({
        data: { uuid: expect.stringMatching(/^[0-9a-f-]{36}$/), name: 'Card terminal', type: 'card' },
      });
      const cash = await fresh.call('POST', accountsPath(here), { name: 'Till' });
      expect(cash.json().data).toMatchObject({ name: 'Till', type: 'cash' });

      const list = await fresh.call('GET', accountsPath(here));
      expect(list.json()).toEqual({ data: [card.json().data, cash.json().data] });
      const one = await fresh.call('GET', `${accountsPath(here)}/${card.json().data.uuid}`);
      expect(one.json()).toEqual({ data: card.json().data });
    } finally {
      await fresh.close();
    }
  });

  it('lists only the accounts of that location', async () => {
    const atA = await create(locationA, { name: 'A till' });
    const list = (await t.call('GET', accountsPath(locationA))).json().data;
    expect(list.map((a: { uuid: string }) => a.uuid)).toContain(atA.uuid);
    expect(list.map((a: { uuid: string }) => a.uuid)).not.toContain(accountAtB);
  });

  const invalid: [string, Record<string, unknown>, string[]][] = [
    ['a missing name', { type: 'card' }, ['name']],
    ['a blank name', { name: '  ' }, ['name']],
    ['an unknown type', { name: 'X', type: 'crypto' }, ['type']],
  ];
  for (const [what, body, fields] of invalid) {
    it(`answers 422 naming the field for ${what}`, async () => {
      const before = await accountCount();
      const response = await t.call('POST', accountsPath(locationA), body);
      expect(response.statusCode).toBe(422);
      const json = response.json();
      expect(json).toMatchObject({ message: 'The given data was invalid.', code: 'validation_failed' });
      expect(Object.keys(json.errors).sort()).toEqual([...fields].sort());
      expect(await accountCount()).toBe(before);
    });
  }

  it('changes only the fields given', async () => {
    const created = await create(locationA, { name: 'Bank', type: 'bank_transfer' });
    const response = await t.call('PATCH', `${accountsPath(locationA)}/${created.uuid}`, { type: 'online' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ data: { uuid: created.uuid, name: 'Bank', type: 'online' } });
    const invalidType = await t.call('PATCH', `${accountsPath(locationA)}/${created.uuid}`, { type: 'gold' });
    expect(invalidType.statusCode).toBe(422);
    expect(Object.keys(invalidType.json().errors)).toEqual(['type']);
  });

  it('archives: 204, then gone from the list and GET, but the row is kept', async () => {
    const created = await create(locationA, { name: 'Old till' });
    const path = `${accountsPath(locationA)}/${created.uuid}`;
    const response = await t.call('DELETE', path);
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    const list = (await t.call('GET', accountsPath(locationA))).json().data;
    expect(list.map((a: { uuid: string }) => a.uuid)).not.toContain(created.uuid);
    const read = await t.call('GET', path);
    expect(read.statusCode).toBe(404);
    expect(read.json()).toEqual((await t.call('GET', `${accountsPath(locationA)}/${randomUUID()}`)).json());
    expect((await t.call('PATCH', path, { name: 'Back' })).statusCode).toBe(404);
    expect((await t.call('DELETE', path)).statusCode).toBe(404);
    const row = await t.db
      .selectFrom('payment_accounts')
      .select(['name', 'archived_at'])
      .where('id', '=', created.uuid)
      .executeTakeFirstOrThrow();
    expect(row.name).toBe('Old till');
    expect(row.archived_at).toBeInstanceOf(Date);
  });
});

describe('payment accounts: isolation and location checks', () => {
  it("answers 404 for another workspace's location exactly like for an unknown one, on every route", async () => {
    const unknownLocation = randomUUID();
    await expectSame404(accountsPath(otherLocation), accountsPath(unknownLocation));
    const before = await accountCount();
    await expectSame404(accountsPath(otherLocation), accountsPath(unknownLocation), 'POST', {
      name: 'Sneaky',
    });
    expect(await accountCount()).toBe(before);
    for (const method of ['GET', 'PATCH', 'DELETE']) {
      const body = method === 'PATCH' ? { name: 'Hijacked' } : undefined;
      await expectSame404(
        `${accountsPath(otherLocation)}/${otherAccount}`,
        `${accountsPath(unknownLocation)}/${randomUUID()}`,
        method,
        body,
      );
    }
  });

  it("answers 404 for another workspace's account under one of ours exactly like for an unknown one", async () => {
    for (const method of ['GET', 'PATCH', 'DELETE']) {
      const body = method === 'PATCH' ? { name: 'Hijacked' } : undefined;
      await expectSame404(
        `${accountsPath(locationA)}/${otherAccount}`,
        `${accountsPath(locationA)}/${randomUUID()}`,
        method,
        body,
      );
    }
    const theirs = await t.db
      .selectFrom('payment_accounts')
      .select(['name', 'archived_at'])
      .where('id', '=', otherAccount)
      .executeTakeFirstOrThrow();
    expect(theirs).toEqual({ name: 'Theirs', archived_at: null });
  });

  it('answers 404 for an account under another of our locations', async () => {
    const response = await t.call('PATCH', `${accountsPath(locationA)}/${accountAtB}`, { name: 'Moved' });
    expect(response.statusCode).toBe(404);
    expect((await t.call('GET', `${accountsPath(locationB)}/${accountAtB}`)).json().data.name).toBe('B till');
  });

  it('answers 404 for an archived location exactly like for an unknown one', async () => {
    await expectSame404(accountsPath(archivedLocation), accountsPath(randomUUID()));
    await expectSame404(accountsPath(archivedLocation), accountsPath(randomUUID()), 'POST', { name: 'Late' });
  });
});
