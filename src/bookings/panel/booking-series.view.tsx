import { ErrorSummary, type FormState, PostForm, SelectField, TextField } from '../../panel-kit/forms.js';
import type { PanelText } from '../../panel-kit/i18n.js';

/** A booking's series as its page shows it (docs/series.md): the rule, every occurrence, the scoped changes. */
export interface SeriesCardProps {
  /** "Every 2 weeks, 10:00": the rule as people read it. */
  rule: string;
  occurrences: { href: string; when: string; status: string; current: boolean; canceled: boolean }[];
  /** Whether this booking is still open: the scoped changes start at it (the forms are shown). */
  open: boolean;
  path: string;
  csrf: string;
  cancelForm: FormState;
  moveForm: FormState;
  zone: string;
  text: PanelText;
}

export function SeriesCard(props: SeriesCardProps) {
  const { t } = props.text;
  const scopes = [
    { value: 'this', label: t('series.scopeThis') },
    { value: 'following', label: t('series.scopeFollowing') },
    { value: 'all', label: t('series.scopeAll') },
  ];
  return (
    <section class="card series" aria-labelledby="booking-series">
      <h2 id="booking-series">{t('series.title')}</h2>
      <p>
        {props.rule} · {t('series.count', { count: props.occurrences.length })}
      </p>
      <ol class="series-occurrences" aria-label={t('series.occurrences')}>
        {props.occurrences.map((occurrence) => (
          <li class={occurrence.canceled ? 'muted' : undefined}>
            {occurrence.current ? (
              <strong aria-current="page">
                {occurrence.when} · {occurrence.status} {t('series.current')}
              </strong>
            ) : (
              <>
                <a href={occurrence.href}>{occurrence.when}</a> · {occurrence.status}
              </>
            )}
          </li>
        ))}
      </ol>
      {props.open && (
        <div class="booking-forms">
          <div>
            <h3>{t('series.moveTitle')}</h3>
            <PostForm action={`${props.path}/series-move`} csrf={props.csrf} label={t('series.moveTitle')}>
              <ErrorSummary form={props.moveForm} ids={{ scope: 'f-series-move-scope' }} />
              <div class="row fields">
                <TextField
                  form={props.moveForm}
                  name="time"
                  id="f-series-time"
                  label={t('series.moveTime')}
                  type="time"
                  hint={t('booking.localTo', { zone: props.zone })}
                />
                <SelectField
                  form={props.moveForm}
                  name="scope"
                  id="f-series-move-scope"
                  label={t('series.scope')}
                  options={scopes}
                />
              </div>
              <button type="submit">{t('series.moveButton')}</button>
            </PostForm>
          </div>
          <div>
            <h3>{t('series.cancelTitle')}</h3>
            <PostForm
              action={`${props.path}/series-cancel`}
              csrf={props.csrf}
              label={t('series.cancelTitle')}
            >
              <ErrorSummary form={props.cancelForm} ids={{ scope: 'f-series-cancel-scope' }} />
              <SelectField
                form={props.cancelForm}
                name="scope"
                id="f-series-cancel-scope"
                label={t('series.scope')}
                options={scopes}
              />
              <button type="submit" class="danger">
                {t('series.cancelButton')}
              </button>
            </PostForm>
          </div>
        </div>
      )}
    </section>
  );
}
