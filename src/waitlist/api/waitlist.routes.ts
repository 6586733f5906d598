import type { FastifyRequest } from 'fastify';
import { presentBooking } from '../../bookings/bookings.presenter.js';
import { BookingJson } from '../../bookings/bookings.schemas.js';
import { AppError } from '../../errors.js';
import type { UnitOfWork } from '../../platform/db/unit-of-work.js';
import { answerWrite } from '../../platform/http/idempotency.js';
import { Data, DataList, responses } from '../../platform/http/responses.js';
import type { ApiApp, AppDeps } from '../../platform/http/types.js';
import { presentEntry, presentOffer } from '../waitlist.presenter.js';
import {
  ClaimBody,
  EntryJson,
  EntryParams,
  EntryQuery,
  JoinBody,
  OfferByHandBody,
  OfferJson,
  OfferQuery,
  WaitlistSettingsBody,
  WaitlistSettingsJson,
} from '../waitlist.schemas.js';
import {
  joinWaitlist,
  leaveWaitlist,
  listWaitlist,
  listWaitlistOffers,
  requireEntry,
  updateWaitlistSettings,
  waitlistSettings,
} from '../waitlist.service.js';
import { claimOffer, offerTimeByHand, withdrawTakenOffer } from '../waitlist-offers.service.js';

/** The waitlist (docs/waitlist.md): join, list, leave, offers, claim, settings. */
export async function waitlistRoutes(app: ApiApp, deps: AppDeps): Promise<void> {
  const tags = ['waitlist'];
  const context = (request: FastifyRequest, uow: UnitOfWork) => ({ ...request.context, db: uow.db, uow });
  const reads = (request: FastifyRequest) => ({ workspace: request.context.workspace, db: deps.db });

  app.post(
    '/waitlist',
    {
      schema: {
        tags,
        summary: 'Join the waitlist of a service (201); finds or creates the customer by phone',
        body: JoinBody,
        response: responses({ 201: Data(EntryJson) }),
      },
    },
    async (request, reply) =>
      answerWrite(request, reply, deps.uow, 201, async (uow) => ({
        data: presentEntry(await joinWaitlist(context(request, uow), request.body)),
      })),
  );

  app.get(
    '/waitlist',
    {
      schema: {
        tags,
        summary: 'The waitlist in line order (first joined first), filtered',
        querystring: EntryQuery,
        response: responses({ 200: DataList(EntryJson) }),
      },
    },
    async (request) => {
      const q = request.query;
      const rows = await listWaitlist(reads(request), {
        locationId: q.location_uuid,
        serviceId: q.service_uuid,
        stafferId: q.staffer_uuid,
        customerId: q.customer_uuid,
        states: q.state ? [q.state] : undefined,
      });
      return { data: rows.map(presentEntry) };
    },
  );

  app.get(
    '/waitlist/offers',
    {
      schema: {
        tags,
        summary: 'Offers made from the waitlist, newest first',
        querystring: OfferQuery,
        response: responses({ 200: DataList(OfferJson) }),
      },
    },
    async (request) => {
      const q = request.query;
      const rows = await listWaitlistOffers(reads(request), {
        entryId: q.entry_uuid,
        serviceId: q.service_uuid,
        state: q.state,
      });
      return { data: rows.map(presentOffer) };
    },
  );

  app.post(
    '/waitlist/offers/claim',
    {
      schema: {
        tags,
        summary:
          'Claim an offer by its token (201: the booking, made through the normal create); 410 offer_gone, 409 offer_time_taken',
        body: ClaimBody,
        response: responses({ 201: Data(BookingJson) }),
      },
    },
    async (request, reply) => {
      try {
        return await answerWrite(request, reply, deps.uow, 201, async (uow) => ({
          data: presentBooking(
            await claimOffer(context(request, uow), request.body.token),
            request.context.workspace,
            request.context.linkBase,
          ),
        }));
      } catch (error) {
        // Taken meanwhile: the claim rolled back; the offer is withdrawn on its own.
        if (error instanceof AppError && error.code === 'offer_time_taken')
          await withdrawTakenOffer(context(request, deps.uow), request.body.token);
        throw error;
      }
    },
  );

  app.get(
    '/waitlist/settings',
    {
      schema: {
        tags,
        summary: "The workspace's waitlist settings",
        response: responses({ 200: Data(WaitlistSettingsJson) }),
      },
    },
    async (request) => ({ data: waitlistSettings(request.context.workspace) }),
  );

  app.put(
    '/waitlist/settings',
    {
      schema: {
        tags,
        summary: "Change the workspace's waitlist settings (the fields given)",
        body: WaitlistSettingsBody,
        response: responses({ 200: Data(WaitlistSettingsJson) }),
      },
    },
    async (request, reply) =>
      answerWrite(request, reply, deps.uow, 200, async (uow) => ({
        data: await updateWaitlistSettings(context(request, uow), request.body),
      })),
  );

  app.get(
    '/waitlist/:entryUuid',
    {
      schema: {
        tags,
        summary: 'One waitlist entry',
        params: EntryParams,
        response: responses({ 200: Data(EntryJson) }),
      },
    },
    async (request) => ({ data: presentEntry(await requireEntry(reads(request), request.params.entryUuid)) }),
  );

  app.delete(
    '/waitlist/:entryUuid',
    {
      schema: {
        tags,
        summary: 'Leave the waitlist: the entry is kept as left, its open offer withdrawn',
        params: EntryParams,
        response: responses({ 200: Data(EntryJson) }),
      },
    },
    async (request, reply) =>
      answerWrite(request, reply, deps.uow, 200, async (uow) => ({
        data: presentEntry(await leaveWaitlist(context(request, uow), request.params.entryUuid)),
      })),
  );

  app.post(
    '/waitlist/:entryUuid/offers',
    {
      schema: {
        tags,
        summary: 'Offer a free time to this person by hand (201); it is held for them like a freed time',
        params: EntryParams,
        body: OfferByHandBody,
        response: responses({ 201: Data(OfferJson) }),
      },
    },
    async (request, reply) =>
      answerWrite(request, reply, deps.uow, 201, async (uow) => ({
        data: presentOffer(
          await offerTimeByHand(context(request, uow), request.params.entryUuid, request.body),
        ),
      })),
  );
}
