import { ErrorSummary, type FormState, PostForm, SelectField, TextField } from '../../panel-kit/forms.js';
import { type PanelText, withElements } from '../../panel-kit/i18n.js';
import { PANEL_PREFIX } from '../../panel-kit/layout.js';
import { LANGUAGE_NAMES, LANGUAGES } from '../../platform/i18n.js';
import { PASSWORD_MIN_LENGTH } from '../passwords.js';

const passwordHint = ({ t }: PanelText) => t('account.passwordHint', { min: PASSWORD_MIN_LENGTH });

export function PasswordPage(props: {
  form: FormState;
  csrf: string;
  mustChange: boolean;
  done?: boolean;
  text: PanelText;
  /** The language form: its state and whether it was just saved. */
  language: { form: FormState; saved?: boolean };
}) {
  const { t } = props.text;
  return (
    <>
      <h1>{props.mustChange ? t('account.choosePassword') : t('account.yourPassword')}</h1>
      {props.mustChange && <p class="lead">{t('account.oneTime')}</p>}
      {props.done && (
        <p class="notice" role="status">
          {t('account.changed')}
        </p>
      )}
      <div class="card">
        <ErrorSummary form={props.form} />
        <PostForm
          action={`${PANEL_PREFIX}/account/password`}
          csrf={props.csrf}
          label={t('account.changePassword')}
        >
          <TextField
            form={props.form}
            name="current_password"
            label={props.mustChange ? t('account.oneTimePassword') : t('account.currentPassword')}
            type="password"
            autocomplete="current-password"
          />
          <TextField
            form={props.form}
            name="password"
            label={t('account.newPassword')}
            type="password"
            hint={passwordHint(props.text)}
            autocomplete="new-password"
          />
          <TextField
            form={props.form}
            name="password_confirmation"
            label={t('account.newPasswordAgain')}
            type="password"
            autocomplete="new-password"
          />
          <button type="submit">{t('account.savePassword')}</button>
        </PostForm>
      </div>
      {!props.mustChange && <LanguageCard {...props} />}
    </>
  );
}

/** The panel language of the signed-in user: each language named in itself, or the browser's. */
function LanguageCard(props: {
  csrf: string;
  text: PanelText;
  language: { form: FormState; saved?: boolean };
}) {
  const { t } = props.text;
  return (
    <section class="card" aria-labelledby="language">
      <h2 id="language">{t('account.language')}</h2>
      {props.language.saved && (
        <p class="notice" role="status">
          {t('account.languageSaved')}
        </p>
      )}
      <p class="muted">{t('account.languageHint')}</p>
      <PostForm action={`${PANEL_PREFIX}/account/language`} csrf={props.csrf} label={t('account.language')}>
        <SelectField
          form={props.language.form}
          name="language"
          label={t('account.language')}
          options={[
            { value: '', label: t('account.languageAuto') },
            ...LANGUAGES.map((lang) => ({ value: lang, label: LANGUAGE_NAMES[lang] })),
          ]}
        />
        <button type="submit">{t('account.saveLanguage')}</button>
      </PostForm>
    </section>
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
  text: PanelText;
}) {
  const { t } = props.text;
  // English names the role as stored ("owner"), as it always has; other languages translate it.
  const role =
    props.text.lang !== 'en' && ['owner', 'admin', 'staff'].includes(props.role)
      ? t(`role.${props.role as 'owner' | 'admin' | 'staff'}`)
      : props.role;
  return (
    <div class="card">
      <h1>{t('account.join', { workspace: props.workspaceName })}</h1>
      <p>
        {withElements((values) => t('account.invited', values), {
          role: <strong>{role}</strong>,
          email: <strong>{props.email}</strong>,
        })}
      </p>
      <ErrorSummary form={props.form} />
      <PostForm
        action={`${PANEL_PREFIX}/invites/${props.token}`}
        csrf={props.csrf}
        label={t('account.acceptInvite')}
      >
        {!props.userExists && (
          <TextField form={props.form} name="name" label={t('account.yourName')} autocomplete="name" />
        )}
        <TextField
          form={props.form}
          name="password"
          label={props.userExists ? t('account.yourPassword') : t('account.choosePasswordField')}
          type="password"
          {...(props.userExists ? {} : { hint: passwordHint(props.text) })}
          autocomplete={props.userExists ? 'current-password' : 'new-password'}
        />
        <button type="submit">{t('account.acceptAndSignIn')}</button>
      </PostForm>
    </div>
  );
}

export function ResetPage(props: {
  form: FormState;
  csrf: string;
  token: string;
  email: string;
  text: PanelText;
}) {
  const { t } = props.text;
  return (
    <div class="card">
      <h1>{t('account.setNewPassword')}</h1>
      <p>{t('account.resetFor', { email: props.email })}</p>
      <ErrorSummary form={props.form} />
      <PostForm
        action={`${PANEL_PREFIX}/reset-password/${props.token}`}
        csrf={props.csrf}
        label={t('account.resetPassword')}
      >
        <TextField
          form={props.form}
          name="password"
          label={t('account.newPassword')}
          type="password"
          hint={passwordHint(props.text)}
          autocomplete="new-password"
        />
        <button type="submit">{t('account.savePassword')}</button>
      </PostForm>
    </div>
  );
}

export function LinkGonePage({ what, text }: { what: 'invite' | 'reset'; text: PanelText }) {
  const { t } = text;
  return (
    <div class="card">
      <h1>{t('account.linkGone')}</h1>
      <p>{t(what === 'invite' ? 'account.inviteGone' : 'account.resetGone')}</p>
      <p>
        <a href={`${PANEL_PREFIX}/sign-in`}>{t('error.toSignIn')}</a>
      </p>
    </div>
  );
}
