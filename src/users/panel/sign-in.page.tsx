import { type FormState, PostForm, TextField } from '../../panel-kit/forms.js';
import { PANEL_PREFIX } from '../../panel-kit/layout.js';

export function SignInPage(props: { form: FormState; csrf: string; next: string; notice?: string }) {
  return (
    <div class="card">
      <h1>Sign in</h1>
      {props.notice && (
        <p class="notice" role="status">
          {props.notice}
        </p>
      )}
      <PostForm action={`${PANEL_PREFIX}/sign-in`} csrf={props.csrf} label="Sign in">
        <input type="hidden" name="next" value={props.next} />
        <TextField
          form={props.form}
          name="email"
          label="Email"
          type="email"
          autocomplete="username"
          required
          autofocus
        />
        <TextField
          form={props.form}
          name="password"
          label="Password"
          type="password"
          autocomplete="current-password"
          required
        />
        <button type="submit">Sign in</button>
      </PostForm>
      <p class="muted">
        Forgot your password? Ask an owner of your workspace, or your operator (
        <code>npm run cli -- user reset-password</code>).
      </p>
    </div>
  );
}
