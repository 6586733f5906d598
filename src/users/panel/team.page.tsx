import {
  ErrorSummary,
  type FormState,
  PostForm,
  SecretValue,
  SelectField,
  TextField,
} from '../../panel-kit/forms.js';
import { type PanelText, withElements } from '../../panel-kit/i18n.js';
import { PANEL_PREFIX } from '../../panel-kit/layout.js';
import type { Role } from '../../platform/db/schema.js';
import type { InviteRow, MemberRow } from '../users.repository.js';

const ROLES: Role[] = ['staff', 'admin', 'owner'];
const roleOptions = ({ t }: PanelText) => ROLES.map((role) => ({ value: role, label: t(`role.${role}`) }));
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
  text: PanelText;
}

export function TeamPage(props: TeamPageProps) {
  const { text } = props;
  const { t } = text;
  return (
    <>
      <h1>{t('nav.team')}</h1>
      <p class="lead">{t('team.lead')}</p>
      {props.notice && (
        <p class="notice" role="status">
          {props.notice}
        </p>
      )}
      {props.inviteLink && (
        <div class="card" role="status">
          <h2>{t('team.inviteFor', { email: props.inviteLink.email })}</h2>
          <p>{t('team.sendLink')}</p>
          <SecretValue value={props.inviteLink.url} label={t('team.inviteLink')} />
        </div>
      )}
      <h2 id="members">{t('team.members')}</h2>
      <div class="table-wrap">
        <table class="stack" aria-labelledby="members">
          <thead>
            <tr>
              <th scope="col">{t('team.email')}</th>
              <th scope="col">{t('team.name')}</th>
              <th scope="col">{t('team.role')}</th>
              <th scope="col">{t('booking.staffer')}</th>
              <th scope="col">
                <span class="muted">{t('team.actions')}</span>
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
                  <td data-label={t('team.email')}>
                    {member.email}
                    {member.user_id === props.selfId && <span class="muted">{t('team.you')}</span>}
                  </td>
                  <td data-label={t('team.name')}>{member.name || <span class="muted">—</span>}</td>
                  <td data-label={t('team.role')}>
                    <PostForm
                      action={`${TEAM}/members/${member.user_id}/role`}
                      csrf={props.csrf}
                      class="row"
                      label={t('team.roleOf', { email: member.email })}
                    >
                      <RoleSelect
                        form={form}
                        id={`role-${member.user_id}`}
                        email={member.email}
                        text={text}
                      />
                      <button type="submit" class="secondary">
                        {t('team.saveRole')}
                      </button>
                    </PostForm>
                    {form.errors.role && (
                      <p class="error" id={`role-${member.user_id}-error`}>
                        {form.errors.role.join(' ')}
                      </p>
                    )}
                  </td>
                  <td data-label={t('booking.staffer')}>
                    {member.staffer_first_name !== null ? (
                      `${member.staffer_first_name} ${member.staffer_last_name ?? ''}`.trim()
                    ) : (
                      <span class="muted">—</span>
                    )}
                  </td>
                  <td class="actions">
                    <a href={`${TEAM}/members/${member.user_id}/remove`}>
                      {t('team.remove')}
                      <span class="skip-label"> {member.email}</span>
                    </a>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <p class="muted">
        {withElements((values) => t('team.staffersNote', values), {
          link: <a href={`${PANEL_PREFIX}/settings/notifications`}>{t('feeds.notificationsLink')}</a>,
        })}
      </p>

      <h2>{t('team.invite')}</h2>
      <div class="card">
        <ErrorSummary form={props.inviteForm} />
        <PostForm action={`${TEAM}/invites`} csrf={props.csrf} label={t('team.invite')}>
          <TextField
            form={props.inviteForm}
            name="email"
            label={t('team.email')}
            type="email"
            autocomplete="off"
          />
          <SelectField
            form={props.inviteForm}
            name="role"
            label={t('team.role')}
            options={roleOptions(text)}
          />
          <button type="submit">{t('team.createInvite')}</button>
        </PostForm>
      </div>

      {props.invites.length > 0 && (
        <>
          <h2 id="invites">{t('team.openInvites')}</h2>
          <div class="table-wrap">
            <table class="stack" aria-labelledby="invites">
              <thead>
                <tr>
                  <th scope="col">{t('team.email')}</th>
                  <th scope="col">{t('team.role')}</th>
                  <th scope="col">{t('team.expires')}</th>
                  <th scope="col">
                    <span class="muted">{t('team.actions')}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {props.invites.map((invite) => (
                  <tr>
                    <td data-label={t('team.email')}>{invite.email}</td>
                    <td data-label={t('team.role')}>{t(`role.${invite.role}`)}</td>
                    <td data-label={t('team.expires')}>{day(invite.expires_at)}</td>
                    <td class="actions">
                      <PostForm
                        action={`${TEAM}/invites/${invite.id}/revoke`}
                        csrf={props.csrf}
                        class="inline"
                      >
                        <button type="submit" class="secondary">
                          {t('team.revoke')}
                          <span class="skip-label">{t('team.inviteOf', { email: invite.email })}</span>
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

function RoleSelect({
  form,
  id,
  email,
  text,
}: {
  form: FormState;
  id: string;
  email: string;
  text: PanelText;
}) {
  const invalid = Boolean(form.errors.role);
  return (
    <>
      <label for={id} class="visually-hidden">
        {text.t('team.roleOf', { email })}
      </label>
      <select
        id={id}
        name="role"
        aria-invalid={invalid ? 'true' : undefined}
        aria-describedby={invalid ? `${id}-error` : undefined}
      >
        {roleOptions(text).map((option) => (
          <option value={option.value} selected={option.value === form.values.role}>
            {option.label}
          </option>
        ))}
      </select>
    </>
  );
}

export function RemoveMemberPage(props: { csrf: string; member: MemberRow; self: boolean; text: PanelText }) {
  const { t } = props.text;
  return (
    <>
      <p class="crumbs">
        <a href={TEAM}>{t('nav.team')}</a> /
      </p>
      <h1>{t('team.removeTitle', { email: props.member.email })}</h1>
      <div class="card">
        <p>{props.self ? t('team.removeSelf') : t('team.removeOther')}</p>
        <div class="row">
          <PostForm
            action={`${TEAM}/members/${props.member.user_id}/remove`}
            csrf={props.csrf}
            class="inline"
          >
            <button type="submit" class="danger">
              {t('team.removeButton')}
            </button>
          </PostForm>
          <a class="button secondary" href={TEAM}>
            {t('team.cancel')}
          </a>
        </div>
      </div>
    </>
  );
}
