import {
  CheckboxesField,
  ErrorSummary,
  type FormState,
  PostForm,
  TextAreaField,
  TextField,
} from '../../panel-kit/forms.js';
import { PANEL_PREFIX } from '../../panel-kit/layout.js';
import { ArchivedBadge, Notice } from '../../panel-kit/setup-parts.js';
import { moneyInputValue } from '../../platform/money.js';

export const SERVICES = `${PANEL_PREFIX}/setup/services`;

/** 90 -> "1 h 30 min". */
export function durationLabel(minutes: number): string {
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours === 0) return `${rest} min`;
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
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

export function ServicesPage(props: { services: ServiceListItem[]; notice?: string }) {
  const live = props.services.filter((service) => !service.archived);
  const archived = props.services.filter((service) => service.archived);
  return (
    <>
      <p class="crumbs">Setup /</p>
      <h1>Services</h1>
      <p class="lead">
        What customers book: how long it takes, what it costs and where it is offered. Staffers give them at a
        location (Setup → Staffers).
      </p>
      <Notice text={props.notice} />
      <p>
        <a class="button" href={`${SERVICES}/new`}>
          Add a service
        </a>
      </p>
      <div class="table-wrap">
        <table class="stack" aria-label="Services">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Duration</th>
              <th scope="col">Price</th>
              <th scope="col">Places</th>
              <th scope="col">Locations</th>
            </tr>
          </thead>
          <tbody>
            {live.length === 0 && (
              <tr>
                <td colSpan={5} class="muted">
                  No services yet.
                </td>
              </tr>
            )}
            {live.map((service) => (
              <tr>
                <td data-label="Name">
                  <a href={`${SERVICES}/${service.id}`}>{service.name}</a>
                  {service.category && <div class="muted">{service.category}</div>}
                </td>
                <td data-label="Duration">
                  {durationLabel(service.duration_minutes)}
                  {service.buffers && <div class="muted">{service.buffers}</div>}
                </td>
                <td data-label="Price">{service.price}</td>
                <td data-label="Places">{service.capacity === 1 ? '1' : `${service.capacity} (group)`}</td>
                <td data-label="Locations">
                  {service.locations.length > 0 ? (
                    service.locations.join(', ')
                  ) : (
                    <span class="muted">Not offered anywhere yet</span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {archived.length > 0 && (
        <>
          <h2>Archived</h2>
          <p class="muted">Kept for the bookings that refer to them; no longer offered.</p>
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
}) {
  const { form, service, currency } = props;
  const action = service ? `${SERVICES}/${service.id}` : SERVICES;
  return (
    <>
      <p class="crumbs">
        Setup / <a href={SERVICES}>Services</a> /
      </p>
      <h1>{service ? service.name : 'Add a service'}</h1>
      <div class="card">
        <ErrorSummary form={form} />
        <PostForm action={action} csrf={props.csrf} label={service ? 'Edit the service' : 'Add a service'}>
          <TextField
            form={form}
            name="category"
            label="Category (optional)"
            hint="Pick one or type a new name; lists group services by it. Leave empty for none."
            list="service-categories"
            autocomplete="off"
          />
          <datalist id="service-categories">
            {props.categories.map((name) => (
              <option value={name} />
            ))}
          </datalist>
          <TextField form={form} name="name" label="Name" autocomplete="off" />
          <TextAreaField form={form} name="description" label="Description (optional)" rows={3} />
          <div class="form-grid">
            <TextField
              form={form}
              name="duration_minutes"
              label="Duration (minutes)"
              type="number"
              min="1"
              max="1440"
              step="1"
            />
            <TextField
              form={form}
              name="price"
              label={`Price (${currency})`}
              hint={`Such as ${moneyInputValue(9000, currency)}; 0 when free.`}
              autocomplete="off"
            />
            <TextField
              form={form}
              name="capacity"
              label="Places per slot"
              hint="1 for one customer at a time; more for a group class."
              type="number"
              min="1"
              max="1000"
              step="1"
            />
            <TextField
              form={form}
              name="buffer_before_minutes"
              label="Buffer before (minutes)"
              hint="Time kept free before it, to prepare."
              type="number"
              min="0"
              max="720"
              step="1"
            />
            <TextField
              form={form}
              name="buffer_after_minutes"
              label="Buffer after (minutes)"
              hint="Time kept free after it, to clean up."
              type="number"
              min="0"
              max="720"
              step="1"
            />
          </div>
          <TextField
            form={form}
            name="resources"
            label="Resources needed"
            hint="Rooms, chairs, equipment it takes for its whole length (Setup → Resources), by type: room, 2 chair. Empty: none."
            autocomplete="off"
          />
          {props.locations.length > 0 ? (
            <CheckboxesField
              form={form}
              name="location_uuids"
              legend="Offered at"
              options={props.locations}
            />
          ) : (
            <p class="muted">Add a location first (Setup → Locations) to offer the service somewhere.</p>
          )}
          <button type="submit">{service ? 'Save the service' : 'Add the service'}</button>
        </PostForm>
      </div>
      {service && (
        <div class="card">
          <h2>Payment and cancellation</h2>
          <p>
            What a booking of it collects (a deposit, the full price, a card on file) and what a late cancel
            or a no-show keeps: <a href={`${SERVICES}/${service.id}/payment`}>set the policy</a>.
          </p>
        </div>
      )}
      {service && (
        <div class="card">
          <h2>Archive</h2>
          <p>
            An archived service is no longer offered: it leaves the API's lists, the free slots and the
            booking page. Its bookings keep it.
          </p>
          <PostForm action={`${SERVICES}/${service.id}/archive`} csrf={props.csrf} class="inline">
            <button type="submit" class="danger">
              Archive {service.name}
            </button>
          </PostForm>
        </div>
      )}
    </>
  );
}
