import { ErrorSummary, type FormState, PostForm, TextField } from '../../panel-kit/forms.js';
import { PANEL_PREFIX } from '../../panel-kit/layout.js';
import { ArchivedBadge, Notice } from '../../panel-kit/setup-parts.js';
import type { ResourceRow } from '../resources.repository.js';

export const RESOURCES = `${PANEL_PREFIX}/setup/resources`;

export interface LocationResources {
  location: { id: string; name: string };
  resources: ResourceRow[];
}

/** Setup → Resources: each live location's rooms, chairs and equipment (docs/resources.md). */
export function ResourcesPage(props: { locations: LocationResources[]; notice?: string }) {
  return (
    <>
      <p class="crumbs">Setup /</p>
      <h1>Resources</h1>
      <p class="lead">
        Rooms, chairs, equipment: what a service needs besides a staffer. A time is offered only while the
        units it needs are free, and no unit is ever booked twice.
      </p>
      <Notice text={props.notice} />
      {props.locations.length === 0 && (
        <p class="muted">
          Add a location first (<a href={`${PANEL_PREFIX}/setup/locations`}>Setup → Locations</a>): resources
          belong to one.
        </p>
      )}
      {props.locations.map(({ location, resources }) => {
        const base = `${RESOURCES}/${location.id}`;
        return (
          <section class="card" aria-labelledby={`loc-${location.id}`}>
            <h2 id={`loc-${location.id}`}>{location.name}</h2>
            <div class="table-wrap">
              <table class="stack" aria-label={`Resources of ${location.name}`}>
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Type</th>
                    <th scope="col">Capacity</th>
                  </tr>
                </thead>
                <tbody>
                  {resources.length === 0 && (
                    <tr>
                      <td colSpan={3} class="muted">
                        No resources yet.
                      </td>
                    </tr>
                  )}
                  {resources.map((resource) => (
                    <tr>
                      <td data-label="Name">
                        {resource.archived_at === null ? (
                          <a href={`${base}/${resource.id}`}>{resource.name}</a>
                        ) : (
                          <>
                            {resource.name} <ArchivedBadge />
                          </>
                        )}
                      </td>
                      <td data-label="Type">{resource.type}</td>
                      <td data-label="Capacity">{String(resource.capacity)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <p>
              <a class="button secondary" href={`${base}/new`}>
                Add a resource<span class="skip-label"> at {location.name}</span>
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
}) {
  const { form, location, resource } = props;
  const base = `${RESOURCES}/${location.id}`;
  const action = resource ? `${base}/${resource.id}` : base;
  return (
    <>
      <p class="crumbs">
        Setup / <a href={RESOURCES}>Resources</a> / {location.name} /
      </p>
      <h1>{resource ? resource.name : `Add a resource at ${location.name}`}</h1>
      <div class="card">
        <ErrorSummary form={form} />
        <PostForm action={action} csrf={props.csrf} label={resource ? 'Edit the resource' : 'Add a resource'}>
          <TextField
            form={form}
            name="name"
            label="Name"
            hint="Such as Room 1 or Wash station 2."
            autocomplete="off"
          />
          <TextField
            form={form}
            name="type"
            label="Type"
            hint="One lowercase word a service asks for: room, chair, wash-station, court."
            autocomplete="off"
          />
          <TextField
            form={form}
            name="capacity"
            label="Capacity"
            hint="How many people it holds; a group class needs a unit at least as big as the class."
            type="number"
          />
          <button type="submit">{resource ? 'Save the resource' : 'Add the resource'}</button>
        </PostForm>
      </div>
      {resource && (
        <div class="card">
          <h2>Archive</h2>
          <p>
            An archived resource is no longer given to new bookings; the bookings that held it keep naming it.
          </p>
          <PostForm action={`${base}/${resource.id}/archive`} csrf={props.csrf} class="inline">
            <button type="submit" class="danger">
              Archive {resource.name}
            </button>
          </PostForm>
        </div>
      )}
    </>
  );
}
