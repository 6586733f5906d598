import {
  ErrorSummary,
  type FormState,
  PostForm,
  SecretValue,
  SelectField,
  TextField,
} from '../../panel-kit/forms.js';
import { PANEL_PREFIX } from '../../panel-kit/layout.js';
import type { Role } from '../../platform/db/schema.js';
import type { InviteRow, MemberRow } from '../users.repository.js';

const ROLE_OPTIONS = [
  { value: 'staff', label: 'Staff' },
  { value: 'admin', label: 'Admin' },
  { value: 'owner', label: 'Owner' },
];
const ROLE_LABEL: Record<Role, string> = { owner: 'Owner', admin: 'Admin', staff: 'Staff' };
const TEAM = `${PANEL_PREFIX}/team`;

const day = (date: Date) => date.toISOString().slice(0, 10);

export interface TeamPageProps {
  csrf: string;
  members: MemberRow[];
  invites: InviteRow[];
  selfId: string;
  inviteForm: FormState;
  /** Set right after an invite was made: its link, shown this once. */
  inviteLink?: { url: string; email: string };
  /** A role change refused, by member. */
  roleErrors?: { userId: string; form: FormState };
  notice?: string;
}

export function TeamPage(props: TeamPageProps) {
  return (
    <>
      <h1>Team</h1>
      <p class="lead">
        Owners manage the team; admins manage API keys and webhooks; staff see their workspace.
      </p>
      {props.notice && (
        <p class="notice" role="status">
          {props.notice}
        </p>
      )}
      {props.inviteLink && (
        <div class="card" role="status">
          <h2>Invite link for {props.inviteLink.email}</h2>
          <p>Send this link to them; it works once, for seven days. It is shown only now.</p>
          <SecretValue value={props.inviteLink.url} label="Invite link" />
        </div>
      )}
      <h2 id="members">Members</h2>
      <div class="table-wrap">
        <table class="stack" aria-labelledby="members">
          <thead>
            <tr>
              <th scope="col">Email</th>
              <th scope="col">Name</th>
              <th scope="col">Role</th>
              <th scope="col">Staffer</th>
              <th scope="col">
                <span class="muted">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {props.members.map((member) => {
              const form =
                props.roleErrors?.userId === member.user_id
                  ? props.roleErrors.form
                  : { values: { role: member.role }, errors: {} };
              return (
                <tr>
                  <td data-label="Email">
                    {member.email}
                    {member.user_id === props.selfId && <span class="muted"> (you)</span>}
                  </td>
                  <td data-label="Name">{member.name || <span class="muted">—</span>}</td>
                  <td data-label="Role">
                    <PostForm
                      action={`${TEAM}/members/${member.user_id}/role`}
                      csrf={props.csrf}
                      class="row"
                      label={`Role of ${member.email}`}
                    >
                      <RoleSelect form={form} id={`role-${member.user_id}`} email={member.email} />
                      <button type="submit" class="secondary">
                        Save role
                      </button>
                    </PostForm>
                    {form.errors.role && (
                      <p class="error" id={`role-${member.user_id}-error`}>
                        {form.errors.role.join(' ')}
                      </p>
                    )}
                  </td>
                  <td data-label="Staffer">
                    {member.staffer_first_name !== null ? (
                      `${member.staffer_first_name} ${member.staffer_last_name ?? ''}`.trim()
                    ) : (
                      <span class="muted">—</span>
                    )}
                  </td>
                  <td class="actions">
                    <a href={`${TEAM}/members/${member.user_id}/remove`}>
                      Remove<span class="skip-label"> {member.email}</span>
                    </a>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <p class="muted">
        Which staffer a member is (their booking emails, their own calendar column and calendar feed) is set
        under <a href={`${PANEL_PREFIX}/settings/notifications`}>Settings → Notifications</a>.
      </p>

      <h2>Invite a member</h2>
      <div class="card">
        <ErrorSummary form={props.inviteForm} />
        <PostForm action={`${TEAM}/invites`} csrf={props.csrf} label="Invite a member">
          <TextField form={props.inviteForm} name="email" label="Email" type="email" autocomplete="off" />
          <SelectField form={props.inviteForm} name="role" label="Role" options={ROLE_OPTIONS} />
          <button type="submit">Create invite link</button>
        </PostForm>
      </div>

      {props.invites.length > 0 && (
        <>
          <h2 id="invites">Open invites</h2>
          <div class="table-wrap">
            <table class="stack" aria-labelledby="invites">
              <thead>
                <tr>
                  <th scope="col">Email</th>
                  <th scope="col">Role</th>
                  <th scope="col">Expires</th>
                  <th scope="col">
                    <span class="muted">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {props.invites.map((invite) => (
                  <tr>
                    <td data-label="Email">{invite.email}</td>
                    <td data-label="Role">{ROLE_LABEL[invite.role]}</td>
                    <td data-label="Expires">{day(invite.expires_at)}</td>
                    <td class="actions">
                      <PostForm
                        action={`${TEAM}/invites/${invite.id}/revoke`}
                        csrf={props.csrf}
                        class="inline"
                      >
                        <button type="submit" class="secondary">
                          Revoke<span class="skip-label"> invite of {invite.email}</span>
                        </button>
                      </PostForm>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </>
  );
}

function RoleSelect({ form, id, email }: { form: FormState; id: string; email: string }) {
  const invalid = Boolean(form.errors.role);
  return (
    <>
      <label for={id} class="visually-hidden">
        Role of {email}
      </label>
      <select
        id={id}
        name="role"
        aria-invalid={invalid ? 'true' : undefined}
        aria-describedby={invalid ? `${id}-error` : undefined}
      >
        {ROLE_OPTIONS.map((option) => (
          <option value={option.value} selected={option.value === form.values.role}>
            {option.label}
          </option>
        ))}
      </select>
    </>
  );
}

export function RemoveMemberPage(props: { csrf: string; member: MemberRow; self: boolean }) {
  return (
    <>
      <p class="crumbs">
        <a href={TEAM}>Team</a> /
      </p>
      <h1>Remove {props.member.email}?</h1>
      <div class="card">
        <p>
          {props.self
            ? 'You will lose access to this workspace at once.'
            : 'They lose access to this workspace at once; their account stays.'}
        </p>
        <div class="row">
          <PostForm
            action={`${TEAM}/members/${props.member.user_id}/remove`}
            csrf={props.csrf}
            class="inline"
          >
            <button type="submit" class="danger">
              Remove member
            </button>
          </PostForm>
          <a class="button secondary" href={TEAM}>
            Cancel
          </a>
        </div>
      </div>
    </>
  );
}
