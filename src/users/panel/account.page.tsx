import { ErrorSummary, type FormState, PostForm, TextField } from '../../panel-kit/forms.js';
import { PANEL_PREFIX } from '../../panel-kit/layout.js';
import { PASSWORD_MIN_LENGTH } from '../passwords.js';

const PASSWORD_HINT = `At least ${PASSWORD_MIN_LENGTH} characters. A passphrase of a few words is good.`;

export function PasswordPage(props: { form: FormState; csrf: string; mustChange: boolean; done?: boolean }) {
  return (
    <>
      <h1>{props.mustChange ? 'Choose your password' : 'Your password'}</h1>
      {props.mustChange && (
        <p class="lead">You signed in with a one-time password. Choose your own to continue.</p>
      )}
      {props.done && (
        <p class="notice" role="status">
          Your password is changed. Your other sessions were signed out.
        </p>
      )}
      <div class="card">
        <ErrorSummary form={props.form} />
        <PostForm action={`${PANEL_PREFIX}/account/password`} csrf={props.csrf} label="Change password">
          <TextField
            form={props.form}
            name="current_password"
            label={props.mustChange ? 'One-time password' : 'Current password'}
            type="password"
            autocomplete="current-password"
          />
          <TextField
            form={props.form}
            name="password"
            label="New password"
            type="password"
            hint={PASSWORD_HINT}
            autocomplete="new-password"
          />
          <TextField
            form={props.form}
            name="password_confirmation"
            label="New password again"
            type="password"
            autocomplete="new-password"
          />
          <button type="submit">Save password</button>
        </PostForm>
      </div>
    </>
  );
}

export function InvitePage(props: {
  form: FormState;
  csrf: string;
  token: string;
  workspaceName: string;
  email: string;
  role: string;
  userExists: boolean;
}) {
  return (
    <div class="card">
      <h1>Join {props.workspaceName}</h1>
      <p>
        You were invited as <strong>{props.role}</strong> with the email <strong>{props.email}</strong>.
      </p>
      <ErrorSummary form={props.form} />
      <PostForm action={`${PANEL_PREFIX}/invites/${props.token}`} csrf={props.csrf} label="Accept invite">
        {!props.userExists && (
          <TextField form={props.form} name="name" label="Your name" autocomplete="name" />
        )}
        <TextField
          form={props.form}
          name="password"
          label={props.userExists ? 'Your password' : 'Choose a password'}
          type="password"
          {...(props.userExists ? {} : { hint: PASSWORD_HINT })}
          autocomplete={props.userExists ? 'current-password' : 'new-password'}
        />
        <button type="submit">Accept and sign in</button>
      </PostForm>
    </div>
  );
}

export function ResetPage(props: { form: FormState; csrf: string; token: string; email: string }) {
  return (
    <div class="card">
      <h1>Set a new password</h1>
      <p>For {props.email}. Every session of this account is signed out.</p>
      <ErrorSummary form={props.form} />
      <PostForm
        action={`${PANEL_PREFIX}/reset-password/${props.token}`}
        csrf={props.csrf}
        label="Reset password"
      >
        <TextField
          form={props.form}
          name="password"
          label="New password"
          type="password"
          hint={PASSWORD_HINT}
          autocomplete="new-password"
        />
        <button type="submit">Save password</button>
      </PostForm>
    </div>
  );
}

export function LinkGonePage({ what }: { what: string }) {
  return (
    <div class="card">
      <h1>This link no longer works</h1>
      <p>The {what} link was already used, has expired, or never existed. Ask for a new one.</p>
      <p>
        <a href={`${PANEL_PREFIX}/sign-in`}>Go to sign-in</a>
      </p>
    </div>
  );
}
