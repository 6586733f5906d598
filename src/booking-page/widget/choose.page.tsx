import type { LocationRow } from '../../locations/locations.repository.js';
import { formatMoney } from '../../platform/money.js';
import type { StafferRecord } from '../../staffers/staffers.repository.js';
import type { ServiceGroup } from '../booking-page.service.js';
import { renderPage } from './layout.js';
import { type PageContext, pageHref } from './state.js';

/** Steps 1-3 of the flow: location (when there are several), service, staffer. */

export function locationPage(ctx: PageContext, locations: LocationRow[]): string {
  return renderPage(ctx, {
    title: ctx.t.chooseLocation,
    heading: ctx.t.chooseLocation,
    children: (
      <ul class="choices">
        {locations.map((location) => (
          <li>
            <a class="choice" href={pageHref(ctx.slug, ctx.state, { location: location.id })}>
              <span>
                <strong>{location.name}</strong>
                <br />
                <small>
                  {[location.address_1, location.postal_code, location.city].filter(Boolean).join(', ')}
                </small>
              </span>
            </a>
          </li>
        ))}
      </ul>
    ),
  });
}

export function servicePage(
  ctx: PageContext,
  groups: ServiceGroup[],
  currency: string,
  back: string | undefined,
): string {
  return renderPage(ctx, {
    title: ctx.t.chooseService,
    heading: ctx.t.chooseService,
    back,
    children: groups.map((group) => (
      <section>
        {groups.length > 1 || group.category ? <h2>{group.category ?? ctx.t.other}</h2> : null}
        <ul class="choices">
          {group.services.map((service) => (
            <li>
              <a class="choice" href={pageHref(ctx.slug, ctx.state, { service: service.id })}>
                <span>
                  <strong>{service.name}</strong>
                  <br />
                  <small>{ctx.t.minutes(service.duration_minutes)}</small>
                </span>
                <span>{formatMoney(service.price, currency, ctx.locale)}</span>
              </a>
            </li>
          ))}
        </ul>
      </section>
    )),
  });
}

export function stafferPage(
  ctx: PageContext,
  staffers: StafferRecord[],
  offerAny: boolean,
  back: string,
): string {
  return renderPage(ctx, {
    title: ctx.t.chooseStaffer,
    heading: ctx.t.chooseStaffer,
    back,
    children: (
      <ul class="choices">
        {offerAny && (
          <li>
            <a class="choice" href={pageHref(ctx.slug, ctx.state, { staffer: 'any' })}>
              <strong>{ctx.t.anyStaffer}</strong>
            </a>
          </li>
        )}
        {staffers.map((staffer) => (
          <li>
            <a class="choice" href={pageHref(ctx.slug, ctx.state, { staffer: staffer.id })}>
              <span>
                <strong>{`${staffer.first_name} ${staffer.last_name}`.trim()}</strong>
                {staffer.position && (
                  <>
                    <br />
                    <small>{staffer.position}</small>
                  </>
                )}
              </span>
            </a>
          </li>
        ))}
      </ul>
    ),
  });
}
