import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers/build-test-app.js';
import { createLocation, createService, createStaffer } from '../../../test/helpers/factories.js';
import { makeUser, PanelClient } from '../../../test/helpers/panel-client.js';
import type { UserRow } from '../users.repository.js';

let t: TestApp;
let owner: UserRow;
beforeAll(async () => {
  t = await buildTestApp();
  owner = await makeUser(t.db, [{ workspaceId: t.workspace.id, role: 'owner' }]);
});
afterAll(() => t.close());

const roleOf = async (userId: string) =>
  (
    await t.db
      .selectFrom('memberships')
      .select('role')
      .where('workspace_id', '=', t.workspace.id)
      .where('user_id', '=', userId)
      .executeTakeFirst()
  )?.role;

describe('Team', () => {
  it('shows which staffer each member is, as set under Settings → Notifications', async () => {
    const client = await PanelClient.signedIn(t.app, t.db, owner);
    const member = await makeUser(t.db, [{ workspaceId: t.workspace.id, role: 'staff' }]);
    const location = await createLocation(t.db, t.workspace.id);
    const service = await createService(t.db, t.workspace.id, [location.id]);
    const zoe = await createStaffer(t.db, t.workspace.id, location.id, [service.id], {
      firstName: 'Zoe',
      lastName: '<b>Zed</b>',
    });
    const row = (body: string) => body.slice(body.indexOf(member.email)).split('</tr>')[0]!;
    expect(row((await client.get('/panel/team')).body)).not.toContain('Zoe');
    await client.get('/panel/settings/notifications');
    const linked = await client.post(`/panel/settings/notifications/staffers/${zoe.id}`, {
      user_id: member.id,
      email: '',
      booking_emails: ['new'],
    });
    expect(linked.statusCode).toBe(303);
    const team = (await client.get('/panel/team')).body;
    expect(row(team)).toContain('<td data-label="Staffer">Zoe &lt;b>Zed&lt;/b></td>');
    expect(team).toContain('href="/panel/settings/notifications"');
  });

  it('invites by link; the invitee joins with the role; owners change roles and remove members', async () => {
    const client = await PanelClient.signedIn(t.app, t.db, owner);
    const bad = await client.submit(
      '/panel/team',
      { email: 'not-an-email', role: 'staff' },
      '/panel/team/invites',
    );
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toMatch(
      /<input id="f-email" name="email" type="email" value="not-an-email"[^>]*aria-invalid="true"/,
    );
    expect(bad.body).toContain(
      '<p class="error" id="f-email-error">Enter an email address, such as name@example.com.</p>',
    );

    const invited = await client.submit(
      '/panel/team',
      { email: 'Stylist@Example.com', role: 'staff' },
      '/panel/team/invites',
    );
    expect(invited.statusCode).toBe(200);
    const link =
      /<code id="secret-value">(http:\/\/localhost(?::80)?\/panel\/invites\/[A-Za-z0-9_-]{43})<\/code>/.exec(
        invited.body,
      )?.[1];
    expect(link).toBeDefined();
    const path = new URL(link!).pathname;

    const invitee = new PanelClient(t.app);
    const invitePage = await invitee.get(path);
    expect(invitePage.body).toContain('stylist@example.com');
    const typed = '<img src=x onerror=alert(1)>Sam';
    const short = await invitee.post(path, { name: typed, password: 'short' });
    expect(short.statusCode).toBe(422);
    expect(short.body).toContain('value="&lt;img src=x onerror=alert(1)>Sam"');
    expect(short.body).not.toContain('value="short"');
    const joined = await invitee.post(path, { name: typed, password: 'a long enough password' });
    expect(joined.headers.location).toBe('/panel');
    expect((await invitee.get('/panel')).body).toContain('Staff of the workspace');
    expect((await new PanelClient(t.app).get(path)).statusCode).toBe(404);

    const team = await client.get('/panel/team');
    expect(team.body).toContain('&lt;img src=x onerror=alert(1)>Sam');
    expect(team.body).not.toContain('<img src=x');
    const member = await t.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'stylist@example.com')
      .executeTakeFirstOrThrow();

    expect((await client.post(`/panel/team/members/${member.id}/role`, { role: 'admin' })).statusCode).toBe(
      303,
    );
    expect(await roleOf(member.id)).toBe('admin');
    const lastOwner = await client.post(`/panel/team/members/${owner.id}/role`, { role: 'staff' });
    expect(lastOwner.statusCode).toBe(422);
    expect(lastOwner.body).toContain(`id="role-${owner.id}-error">A workspace keeps at least one owner`);
    expect(await roleOf(owner.id)).toBe('owner');

    const confirm = await client.get(`/panel/team/members/${member.id}/remove`);
    expect(confirm.body).toContain('Remove stylist@example.com?');
    expect((await client.post(`/panel/team/members/${member.id}/remove`)).headers.location).toBe(
      '/panel/team?notice=removed',
    );
    expect(await roleOf(member.id)).toBeUndefined();
    // Removed: the member's session has no workspace any more.
    expect((await invitee.get('/panel')).statusCode).toBe(403);
  });
});
