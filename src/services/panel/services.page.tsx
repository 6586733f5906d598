import {
  CheckboxesField,
  ErrorSummary,
  type FormState,
  PostForm,
  TextAreaField,
  TextField,
} from '../../panel-kit/forms.js';
import { type PanelText, withElements } from '../../panel-kit/i18n.js';
import { PANEL_PREFIX } from '../../panel-kit/layout.js';
import { ArchivedBadge, Notice } from '../../panel-kit/setup-parts.js';
import { moneyInputValue } from '../../platform/money.js';

export const SERVICES = `${PANEL_PREFIX}/setup/services`;

/** 90 -> "1 h 30 min" ("1 Std. 30 Min."). */
export function durationLabel(minutes: number, text: PanelText): string {
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours === 0) return text.t('services.minutes', { minutes: rest });
  return rest === 0
    ? text.t('services.hours', { hours })
    : text.t('services.hoursMinutes', { hours, minutes: rest });
}

export interface ServiceListItem {
  id: string;
  name: string;
  category: string | null;
  duration_minutes: number;
  price: string;
  capacity: number;
  buffers: string;
  locations: string[];
  archived: boolean;
}

export function ServicesPage(props: { services: ServiceListItem[]; notice?: string; text: PanelText }) {
  const { t } = props.text;
  const live = props.services.filter((service) => !service.archived);
  const archived = props.services.filter((service) => service.archived);
  return (
    <>
      <p class="crumbs">{t('nav.setup')} /</p>
      <h1>{t('nav.services')}</h1>
      <p class="lead">{t('services.lead')}</p>
      <Notice text={props.notice} />
      <p>
        <a class="button" href={`${SERVICES}/new`}>
          {t('services.add')}
        </a>
      </p>
      <div class="table-wrap">
        <table class="stack" aria-label={t('nav.services')}>
          <thead>
            <tr>
              <th scope="col">{t('services.name')}</th>
              <th scope="col">{t('services.duration')}</th>
              <th scope="col">{t('services.price')}</th>
              <th scope="col">{t('services.places')}</th>
              <th scope="col">{t('services.locations')}</th>
            </tr>
          </thead>
          <tbody>
            {live.length === 0 && (
              <tr>
                <td colSpan={5} class="muted">
                  {t('services.none')}
                </td>
              </tr>
            )}
            {live.map((service) => (
              <tr>
                <td data-label={t('services.name')}>
                  <a href={`${SERVICES}/${service.id}`}>{service.name}</a>
                  {service.category && <div class="muted">{service.category}</div>}
                </td>
                <td data-label={t('services.duration')}>
                  {durationLabel(service.duration_minutes, props.text)}
                  {service.buffers && <div class="muted">{service.buffers}</div>}
                </td>
                <td data-label={t('services.price')}>{service.price}</td>
                <td data-label={t('services.places')}>
                  {service.capacity === 1 ? '1' : t('services.group', { capacity: service.capacity })}
                </td>
                <td data-label={t('services.locations')}>
                  {service.locations.length > 0 ? (
                    service.locations.join(', ')
                  ) : (
                    <span class="muted">{t('services.nowhere')}</span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {archived.length > 0 && (
        <>
          <h2>{t('kit.archived')}</h2>
          <p class="muted">{t('services.archivedLead')}</p>
          <ul class="archived">
            {archived.map((service) => (
              <li>
                {service.name} <ArchivedBadge />
              </li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}

export function ServiceFormPage(props: {
  form: FormState;
  csrf: string;
  currency: string;
  categories: string[];
  locations: { value: string; label: string }[];
  service?: { id: string; name: string };
  text: PanelText;
}) {
  const { form, service, currency } = props;
  const { t } = props.text;
  const action = service ? `${SERVICES}/${service.id}` : SERVICES;
  return (
    <>
      <p class="crumbs">
        {t('nav.setup')} / <a href={SERVICES}>{t('nav.services')}</a> /
      </p>
      <h1>{service ? service.name : t('services.add')}</h1>
      <div class="card">
        <ErrorSummary form={form} />
        <PostForm action={action} csrf={props.csrf} label={service ? t('services.edit') : t('services.add')}>
          <TextField
            form={form}
            name="category"
            label={t('services.category')}
            hint={t('services.categoryHint')}
            list="service-categories"
            autocomplete="off"
          />
          <datalist id="service-categories">
            {props.categories.map((name) => (
              <option value={name} />
            ))}
          </datalist>
          <TextField form={form} name="name" label={t('services.name')} autocomplete="off" />
          <TextAreaField form={form} name="description" label={t('services.description')} rows={3} />
          <div class="form-grid">
            <TextField
              form={form}
              name="duration_minutes"
              label={t('services.durationMinutes')}
              type="number"
              min="1"
              max="1440"
              step="1"
            />
            <TextField
              form={form}
              name="price"
              label={t('services.priceIn', { currency })}
              hint={t('services.priceHint', { example: moneyInputValue(9000, currency) })}
              autocomplete="off"
            />
            <TextField
              form={form}
              name="capacity"
              label={t('services.capacity')}
              hint={t('services.capacityHint')}
              type="number"
              min="1"
              max="1000"
              step="1"
            />
            <TextField
              form={form}
              name="buffer_before_minutes"
              label={t('services.bufferBeforeLabel')}
              hint={t('services.bufferBeforeHint')}
              type="number"
              min="0"
              max="720"
              step="1"
            />
            <TextField
              form={form}
              name="buffer_after_minutes"
              label={t('services.bufferAfterLabel')}
              hint={t('services.bufferAfterHint')}
              type="number"
              min="0"
              max="720"
              step="1"
            />
          </div>
          <TextField
            form={form}
            name="resources"
            label={t('services.resources')}
            hint={t('services.resourcesHint')}
            autocomplete="off"
          />
          <CheckboxesField
            form={form}
            name="staffer_needed"
            legend={t('services.staffer')}
            hint={t('services.stafferHint')}
            options={[{ value: 'no', label: t('services.noStaffer') }]}
          />
          <CheckboxesField
            form={form}
            name="series_bookable"
            legend={t('services.series')}
            hint={t('services.seriesHint')}
            options={[{ value: 'yes', label: t('services.seriesBookable') }]}
          />
          {props.locations.length > 0 ? (
            <CheckboxesField
              form={form}
              name="location_uuids"
              legend={t('services.offeredAt')}
              options={props.locations}
            />
          ) : (
            <p class="muted">{t('services.noLocations')}</p>
          )}
          <button type="submit">{service ? t('services.save') : t('services.addThe')}</button>
        </PostForm>
      </div>
      {service && (
        <div class="card">
          <h2>{t('services.payment')}</h2>
          <p>
            {withElements((values) => t('services.paymentText', values), {
              link: <a href={`${SERVICES}/${service.id}/payment`}>{t('services.paymentLink')}</a>,
            })}
          </p>
        </div>
      )}
      {service && (
        <div class="card">
          <h2>{t('services.archive')}</h2>
          <p>{t('services.archiveText')}</p>
          <PostForm action={`${SERVICES}/${service.id}/archive`} csrf={props.csrf} class="inline">
            <button type="submit" class="danger">
              {t('services.archiveButton', { name: service.name })}
            </button>
          </PostForm>
        </div>
      )}
    </>
  );
}
