import { type FormState, PostForm, TextField } from '../../panel-kit/forms.js';
import { type PanelText, withElements } from '../../panel-kit/i18n.js';
import { PANEL_PREFIX } from '../../panel-kit/layout.js';

export function SignInPage(props: {
  form: FormState;
  csrf: string;
  next: string;
  notice?: string;
  text: PanelText;
}) {
  const { t } = props.text;
  return (
    <div class="card">
      <h1>{t('signIn.title')}</h1>
      {props.notice && (
        <p class="notice" role="status">
          {props.notice}
        </p>
      )}
      <PostForm action={`${PANEL_PREFIX}/sign-in`} csrf={props.csrf} label={t('signIn.title')}>
        <input type="hidden" name="next" value={props.next} />
        <TextField
          form={props.form}
          name="email"
          label={t('signIn.email')}
          type="email"
          autocomplete="username"
          required
          autofocus
        />
        <TextField
          form={props.form}
          name="password"
          label={t('signIn.password')}
          type="password"
          autocomplete="current-password"
          required
        />
        <button type="submit">{t('signIn.title')}</button>
      </PostForm>
      <p class="muted">
        {withElements((values) => t('signIn.forgot', values), {
          code: <code>npm run cli -- user reset-password</code>,
        })}
      </p>
    </div>
  );
}
