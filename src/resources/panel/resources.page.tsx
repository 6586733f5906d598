import {
  ErrorSummary,
  FieldError,
  type FormState,
  fieldId,
  PostForm,
  TextField,
} from '../../panel-kit/forms.js';
import { type PanelText, withElements } from '../../panel-kit/i18n.js';
import { PANEL_PREFIX } from '../../panel-kit/layout.js';
import { ArchivedBadge, Notice } from '../../panel-kit/setup-parts.js';
import type { ResourceRow } from '../resources.repository.js';

export const RESOURCES = `${PANEL_PREFIX}/setup/resources`;

export interface LocationResources {
  location: { id: string; name: string };
  resources: ResourceRow[];
}

/** Setup → Resources: each live location's rooms, chairs and equipment (docs/resources.md). */
export function ResourcesPage(props: { locations: LocationResources[]; notice?: string; text: PanelText }) {
  const { t } = props.text;
  return (
    <>
      <p class="crumbs">{t('nav.setup')} /</p>
      <h1>{t('nav.resources')}</h1>
      <p class="lead">{t('resources.lead')}</p>
      <Notice text={props.notice} />
      {props.locations.length === 0 && (
        <p class="muted">
          {withElements((values) => t('resources.noLocations', values), {
            link: <a href={`${PANEL_PREFIX}/setup/locations`}>{t('resources.locationsLink')}</a>,
          })}
        </p>
      )}
      {props.locations.map(({ location, resources }) => {
        const base = `${RESOURCES}/${location.id}`;
        return (
          <section class="card" aria-labelledby={`loc-${location.id}`}>
            <h2 id={`loc-${location.id}`}>{location.name}</h2>
            <div class="table-wrap">
              <table class="stack" aria-label={t('resources.tableOf', { location: location.name })}>
                <thead>
                  <tr>
                    <th scope="col">{t('resources.name')}</th>
                    <th scope="col">{t('resources.type')}</th>
                    <th scope="col">{t('resources.capacity')}</th>
                  </tr>
                </thead>
                <tbody>
                  {resources.length === 0 && (
                    <tr>
                      <td colSpan={3} class="muted">
                        {t('resources.none')}
                      </td>
                    </tr>
                  )}
                  {resources.map((resource) => (
                    <tr>
                      <td data-label={t('resources.name')}>
                        {resource.archived_at === null ? (
                          <a href={`${base}/${resource.id}`}>{resource.name}</a>
                        ) : (
                          <>
                            {resource.name} <ArchivedBadge />
                          </>
                        )}
                      </td>
                      <td data-label={t('resources.type')}>{resource.type}</td>
                      <td data-label={t('resources.capacity')}>{String(resource.capacity)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <p>
              <a class="button secondary" href={`${base}/new`}>
                {withElements((values) => t('resources.addButton', values), {
                  hidden: (
                    <span class="skip-label">{t('resources.atHidden', { location: location.name })}</span>
                  ),
                })}
              </a>
            </p>
          </section>
        );
      })}
    </>
  );
}

export function ResourceFormPage(props: {
  form: FormState;
  csrf: string;
  location: { id: string; name: string };
  resource?: { id: string; name: string };
  text: PanelText;
}) {
  const { form, location, resource } = props;
  const { t } = props.text;
  const base = `${RESOURCES}/${location.id}`;
  const action = resource ? `${base}/${resource.id}` : base;
  return (
    <>
      <p class="crumbs">
        {t('nav.setup')} / <a href={RESOURCES}>{t('nav.resources')}</a> / {location.name} /
      </p>
      <h1>{resource ? resource.name : t('resources.addAt', { location: location.name })}</h1>
      <div class="card">
        <ErrorSummary form={form} />
        <PostForm
          action={action}
          csrf={props.csrf}
          label={resource ? t('resources.edit') : t('resources.add')}
        >
          <TextField
            form={form}
            name="name"
            label={t('resources.name')}
            hint={t('resources.nameHint')}
            autocomplete="off"
          />
          <TextField
            form={form}
            name="type"
            label={t('resources.type')}
            hint={t('resources.typeHint')}
            autocomplete="off"
          />
          <TextField
            form={form}
            name="capacity"
            label={t('resources.capacity')}
            hint={t('resources.capacityHint')}
            type="number"
          />
          <button type="submit">{resource ? t('resources.save') : t('resources.addThe')}</button>
        </PostForm>
      </div>
      {resource && (
        <div class="card">
          <h2 id={fieldId('archive')}>{t('resources.archive')}</h2>
          <p>{t('resources.archiveText')}</p>
          <FieldError form={form} name="archive" />
          <PostForm action={`${base}/${resource.id}/archive`} csrf={props.csrf} class="inline">
            <button type="submit" class="danger">
              {t('resources.archiveButton', { name: resource.name })}
            </button>
          </PostForm>
        </div>
      )}
    </>
  );
}
